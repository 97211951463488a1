// Database lifecycle for CLI entry points, so the CLI reaches the data layer only through services: the migration
// status (the schema engine is loaded on demand, never by the Next.js server) and closing the shared client.
import type { DatabaseConfig } from "../env.ts";
import { getDb } from "../db/client.ts";

export async function migrationStatus(config: DatabaseConfig): Promise<{ pending: string[]; problem?: string }> {
  return (await import("../db/schema-engine.ts")).migrateStatus(config);
}

/** Close the process-wide client (a no-op when it was never opened). */
export async function closeDatabase(): Promise<void> {
  await getDb().$disconnect();
}
