// Start-up migrations: apply the committed per-provider SQL (prisma/<provider>/migrations/*/migration.sql) and keep
// Prisma Migrate's `_prisma_migrations` table, so databases made by Prisma's engine (earlier releases) and by this
// runner are interchangeable. Creating migrations is a developer task (scripts/new-migration.ts, Prisma's engine).
import type { DatabaseConfig } from "../../env.ts";
import { migrationsDir, readMigrations } from "./local.ts";
import { postgresDeploy, postgresStatus } from "./postgres.ts";
import { sqliteDeploy, sqliteStatus } from "./sqlite.ts";
import type { ApplyResult, StatusResult } from "./report.ts";

export type { ApplyResult, StatusResult } from "./report.ts";

export interface MigrateOptions {
  /** Folder of migrations to apply instead of the committed ones (tests). */
  dir?: string;
}

/** Apply every pending migration, or refuse (AppError naming the migration) when the history forbids it. */
export async function migrateDeploy(config: DatabaseConfig, opts: MigrateOptions = {}): Promise<ApplyResult> {
  const local = readMigrations(opts.dir ?? migrationsDir(config.provider));
  return config.provider === "sqlite" ? sqliteDeploy(config.file, local) : postgresDeploy(config.url, local);
}

/** Pending migrations and the problems that would stop `migrateDeploy`, without changing anything. */
export async function migrateStatus(config: DatabaseConfig, opts: MigrateOptions = {}): Promise<StatusResult> {
  const local = readMigrations(opts.dir ?? migrationsDir(config.provider));
  return config.provider === "sqlite" ? sqliteStatus(config.file, local) : postgresStatus(config.url, local);
}
