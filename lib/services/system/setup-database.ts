// Bring a database to the current schema and baseline content. Used by `npm start`, the CLI, tests and benchmarks.
import type { DatabaseConfig } from "../../env.ts";
import { createDb } from "../../db/client.ts";
import { migrateDeploy, migrateStatus, type StatusResult } from "../../db/migrations/index.ts";
import { ensureLabelSchemas } from "../../db/repositories/annotation/schemas.ts";
import { DEFAULT_LABEL_SCHEMAS } from "../../domain/taxonomy.ts";

/**
 * Apply pending migrations (the committed SQL, one transaction each; refused with a message naming the migration
 * when the recorded history forbids it) and create the default label schemas.
 */
export async function setupDatabase(
  config: DatabaseConfig,
): Promise<{ applied: string[]; unknown: string[]; labelSchemasCreated: number }> {
  const { applied, unknown } = await migrateDeploy(config);
  const client = createDb(config);
  try {
    const labelSchemasCreated = await ensureLabelSchemas(client, DEFAULT_LABEL_SCHEMAS);
    return { applied, unknown, labelSchemasCreated };
  } finally {
    await client.$disconnect();
  }
}

/** Pending migrations and history problems, for `reterm migrate status` (the CLI reaches lib/db only through services). */
export async function getMigrationStatus(config: DatabaseConfig): Promise<StatusResult> {
  return migrateStatus(config);
}

/** Close the process-wide database client, if one was opened (CLI entry points, before exit). */
export async function closeDatabase(): Promise<void> {
  const { getDb } = await import("../../db/client.ts");
  try {
    await getDb().$disconnect();
  } catch {
    /* the client may never have been created */
  }
}
