// Bring a database to the current schema and baseline content. Used by `npm start`, `reterm migrate` and tests.
// Imports the schema engine, so only CLI entry points may call it (never the Next.js server).
import type { DatabaseConfig } from "../env.ts";
import { createDb, type Db } from "../db/client.ts";
import { appliedMigrationNames, migrationDirNames } from "../db/migration-state.ts";
import { ensureLabelSchemas } from "../db/repositories/label-schemas.ts";
import { DEFAULT_LABEL_SCHEMAS } from "../domain/taxonomy.ts";

/**
 * Apply pending migrations (the schema engine is loaded only when some are pending, or with `force`, which also
 * lets the engine verify the recorded history) and create the default label schemas.
 */
export async function setupDatabase(config: DatabaseConfig, opts: { force?: boolean } = {}): Promise<{ applied: string[]; labelSchemasCreated: number }> {
  let client: Db = createDb(config);
  try {
    const done = opts.force ? null : await appliedMigrationNames(client);
    const pending = !done || migrationDirNames(config.provider).some((n) => !done.has(n));
    let applied: string[] = [];
    if (pending) {
      // The engine migrates over a connection of its own; on SQLite, a connection of ours left open keeps the file
      // busy and the engine gives up (SocketTimeout) — so ours is closed while it works, and reopened after.
      await client.$disconnect();
      applied = await (await import("../db/schema-engine.ts")).migrateDeploy(config);
      client = createDb(config);
    }
    const labelSchemasCreated = await ensureLabelSchemas(client, DEFAULT_LABEL_SCHEMAS);
    return { applied, labelSchemasCreated };
  } finally {
    await client.$disconnect();
  }
}

/** Pending migrations or a history problem (`reterm migrate status`). CLI only, like setupDatabase. */
export async function getMigrationStatus(config: DatabaseConfig): Promise<{ pending: string[]; problem?: string }> {
  return (await import("../db/schema-engine.ts")).migrateStatus(config);
}

/** Close the shared client when a CLI command ends (it may never have been created). */
export async function closeDatabase(): Promise<void> {
  const { getDb } = await import("../db/client.ts");
  try {
    await getDb().$disconnect();
  } catch {
    /* the client may never have been created */
  }
}
