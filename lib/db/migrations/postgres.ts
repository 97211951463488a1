// Applies committed migrations to PostgreSQL with pg, recording them in `_prisma_migrations` exactly as Prisma's
// schema engine does, one transaction per migration (PostgreSQL's DDL is transactional).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { AppError } from "../../errors.ts";
import type { LocalMigration } from "./local.ts";
import { planMigrations, type MigrationPlan, type MigrationRow } from "./plan.ts";
import { migrationFailed, refuse, type ApplyResult, type StatusResult } from "./report.ts";

// Prisma Migrate's own DDL for PostgreSQL (the engine's databases hold this table).
const TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

// The advisory lock key Prisma Migrate takes: processes running this runner, and `prisma migrate deploy` itself,
// exclude each other while applying. Advisory locks are per database.
const PRISMA_LOCK_KEY = 72707369;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return client;
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new AppError(
      "DB_UNAVAILABLE",
      `Cannot open the postgresql database: ${(e as Error).message} (check DATABASE_URL and that the server is running)`,
    );
  }
}

async function readState(client: pg.Client): Promise<{ rows: MigrationRow[] | null; otherTables: string[] }> {
  const tables = (
    await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
  ).rows.map((t) => t.name);
  if (!tables.includes("_prisma_migrations")) return { rows: null, otherTables: tables };
  const rows = (
    await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at`,
    )
  ).rows;
  return { rows, otherTables: tables.filter((t) => t !== "_prisma_migrations") };
}

async function plan(client: pg.Client, local: LocalMigration[]): Promise<MigrationPlan & { hasTable: boolean }> {
  const { rows, otherTables } = await readState(client);
  return { ...planMigrations(local, rows, otherTables), hasTable: rows !== null };
}

export async function postgresStatus(url: string, local: LocalMigration[]): Promise<StatusResult> {
  const client = await connect(url);
  try {
    const p = await plan(client, local);
    return { pending: p.pending.map((m) => m.name), problems: p.problems, unknown: p.unknown };
  } finally {
    await client.end();
  }
}

export async function postgresDeploy(url: string, local: LocalMigration[]): Promise<ApplyResult> {
  const client = await connect(url);
  try {
    const first = await plan(client, local);
    refuse("postgresql", first.problems);
    if (!first.pending.length) return { applied: [], unknown: first.unknown };
    // A second process starting now waits here, then re-reads the history and finds the migrations applied.
    await client.query(`SELECT pg_advisory_lock($1)`, [PRISMA_LOCK_KEY]);
    try {
      const applied: string[] = [];
      for (;;) {
        const p = await plan(client, local);
        refuse("postgresql", p.problems);
        const current = p.pending[0];
        if (!current) return { applied, unknown: p.unknown };
        const started = new Date();
        await client.query("BEGIN");
        try {
          if (!p.hasTable) await client.query(TABLE_DDL);
          await client.query(current.sql);
          await client.query(
            `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, $4, 1)`,
            [randomUUID(), current.checksum, current.name, started],
          );
          await client.query("COMMIT");
        } catch (e) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw migrationFailed("postgresql", current, e);
        }
        applied.push(current.name);
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock($1)`, [PRISMA_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
