// Applies committed migrations to an SQLite file with better-sqlite3, recording them in `_prisma_migrations` exactly
// as Prisma's schema engine does (same table, same row format), one transaction per migration.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import Database from "better-sqlite3";
import { AppError } from "../../errors.ts";
import { assertSqliteFileUsable } from "../client.ts";
import type { LocalMigration } from "./local.ts";
import { planMigrations, type MigrationPlan, type MigrationRow } from "./plan.ts";
import { migrationFailed, refuse, type ApplyResult, type StatusResult } from "./report.ts";

// Prisma Migrate's own DDL for SQLite, byte for byte (sqlite_master keeps the text; the engine's databases hold this).
const TABLE_DDL = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

// Another process applying a long migration holds the write lock; wait for it rather than fail the start.
const LOCK_WAIT_MS = 10 * 60_000;

const FOREIGN_KEYS_OFF = /^\s*PRAGMA\s+foreign_keys\s*=\s*(OFF|0|false|no)\s*;/im;

/** The engine writes timestamps as RFC 3339 text with milliseconds and an explicit offset. */
const timestamp = (d: Date) => d.toISOString().replace("Z", "+00:00");

function busy(e: unknown): unknown {
  if (!/^SQLITE_BUSY/.test((e as { code?: string }).code ?? "")) return e;
  return new AppError(
    "DB_UNAVAILABLE",
    `The SQLite database stayed locked for ${LOCK_WAIT_MS / 60_000} minutes while waiting to apply migrations (another process is writing to it).`,
  );
}

function open(file: string): Database.Database {
  assertSqliteFileUsable(file);
  return new Database(file, { timeout: LOCK_WAIT_MS });
}

function readState(db: Database.Database): { rows: MigrationRow[] | null; otherTables: string[] } {
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]
  ).map((t) => t.name);
  if (!tables.includes("_prisma_migrations")) return { rows: null, otherTables: tables };
  const rows = db
    .prepare(`SELECT "migration_name", "checksum", "finished_at", "rolled_back_at", "logs" FROM "_prisma_migrations" ORDER BY "started_at"`)
    .all() as MigrationRow[];
  return { rows, otherTables: tables.filter((t) => t !== "_prisma_migrations") };
}

function plan(db: Database.Database, local: LocalMigration[]): MigrationPlan & { hasTable: boolean } {
  const { rows, otherTables } = readState(db);
  return { ...planMigrations(local, rows, otherTables), hasTable: rows !== null };
}

export function sqliteStatus(file: string, local: LocalMigration[]): StatusResult {
  // Asking must not create the database file.
  if (!fs.existsSync(file)) return { pending: local.map((m) => m.name), problems: [], unknown: [] };
  const db = open(file);
  try {
    const p = plan(db, local);
    return { pending: p.pending.map((m) => m.name), problems: p.problems, unknown: p.unknown };
  } finally {
    db.close();
  }
}

export function sqliteDeploy(file: string, local: LocalMigration[]): ApplyResult {
  const db = open(file);
  try {
    const first = plan(db, local);
    refuse("sqlite", first.problems);
    if (!first.pending.length) return { applied: [], unknown: first.unknown };
    const applied: string[] = [];
    for (;;) {
      const next = plan(db, local).pending[0];
      // Prisma's table rebuilds (copy, drop, rename) say `PRAGMA foreign_keys=OFF`, else dropping the old table would
      // cascade into its children; the pragma is a no-op inside a transaction, so it is set before BEGIN, and the
      // integrity check runs before COMMIT instead (SQLite's procedure for schema changes). Other migrations run with
      // foreign keys enforced, as they did under Prisma's engine.
      const keysOff = next !== undefined && FOREIGN_KEYS_OFF.test(next.sql);
      db.pragma(`foreign_keys = ${keysOff ? "OFF" : "ON"}`);
      // BEGIN IMMEDIATE takes the write lock: a second process starting now waits here, then re-reads the history
      // and finds the migration applied.
      try {
        db.exec("BEGIN IMMEDIATE");
      } catch (e) {
        throw busy(e);
      }
      let current: LocalMigration | undefined;
      try {
        const p = plan(db, local);
        refuse("sqlite", p.problems);
        if (!p.pending.length) {
          db.exec("COMMIT");
          return { applied, unknown: p.unknown };
        }
        if (p.pending[0]!.name !== next?.name) {
          db.exec("COMMIT"); // another process moved on meanwhile: decide the pragma again
          continue;
        }
        current = next;
        const started = new Date();
        if (!p.hasTable) db.exec(TABLE_DDL);
        db.exec(current.sql);
        if (keysOff) {
          const broken = db.pragma("foreign_key_check") as { table: string; parent: string }[];
          if (broken.length)
            throw new Error(
              `it leaves ${broken.length} row(s) whose foreign key points nowhere (first: ${broken[0]!.table} → ${broken[0]!.parent})`,
            );
        }
        db.prepare(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
        ).run(randomUUID(), current.checksum, timestamp(new Date()), current.name, timestamp(started));
        db.exec("COMMIT");
        applied.push(current.name);
      } catch (e) {
        if (db.inTransaction) db.exec("ROLLBACK");
        if (current) throw migrationFailed("sqlite", current, e);
        throw e;
      }
    }
  } finally {
    db.close();
  }
}
