// What to do with a database, from its `_prisma_migrations` rows and the committed migrations: which migrations are
// pending, and which problems forbid applying anything (the checks Prisma Migrate makes). Pure: no I/O.
import { sha256Hex, type LocalMigration } from "./local.ts";

/** One `_prisma_migrations` row, as far as the plan needs it (rows written by Prisma's engine or by our runner). */
export interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  logs?: string | null;
}

export interface MigrationPlan {
  pending: LocalMigration[];
  /** Reasons to refuse to migrate (and to start): each names the migration and what to do. */
  problems: string[];
  /** Recorded as applied in the database but not committed here (a newer release's database): reported, not fatal. */
  unknown: string[];
}

const present = (v: unknown) => v !== null && v !== undefined;

/** Prisma accepts a checksum computed with either line ending, so a checkout with CRLF files still matches. */
export function checksumMatches(sql: string, checksum: string): boolean {
  const c = checksum.toLowerCase();
  return sha256Hex(sql) === c || sha256Hex(sql.replace(/\r\n/g, "\n")) === c || sha256Hex(sql.replace(/\r?\n/g, "\r\n")) === c;
}

/**
 * rows: the database's `_prisma_migrations` rows, or null when it has no such table; otherTables: the tables it holds
 * besides that one (a database with tables but no history was not made by these migrations: applying them would fail
 * half-way or mix two schemas).
 */
export function planMigrations(local: LocalMigration[], rows: MigrationRow[] | null, otherTables: string[] = []): MigrationPlan {
  if (rows === null && otherTables.length) {
    const shown = otherTables.slice(0, 5).join(", ") + (otherTables.length > 5 ? ", …" : "");
    return {
      pending: local,
      problems: [
        `The database already holds tables (${shown}) but no migration history (_prisma_migrations): it was not created by ReTerm Studio. Use an empty database.`,
      ],
      unknown: [],
    };
  }
  rows ??= [];
  const problems: string[] = [];
  // Rolled-back rows do not count (Prisma re-applies such a migration); a row neither finished nor rolled back is a
  // failed attempt that may have left the database half-changed.
  const live = rows.filter((r) => !present(r.rolled_back_at));
  for (const r of live.filter((r) => !present(r.finished_at))) {
    const why = r.logs
      ? `: ${r.logs
          .split("\n")
          .find((l) => l.trim())
          ?.trim()}`
      : "";
    problems.push(
      `Migration ${r.migration_name} failed earlier and may have left the database half-changed${why}. Restore a backup, or repair the ` +
        `database by hand and mark the attempt rolled back (UPDATE "_prisma_migrations" SET "rolled_back_at" = CURRENT_TIMESTAMP ` +
        `WHERE "migration_name" = '${r.migration_name}' AND "finished_at" IS NULL), then start again.`,
    );
  }
  const applied = new Map<string, MigrationRow[]>();
  for (const r of live.filter((r) => present(r.finished_at))) applied.set(r.migration_name, [...(applied.get(r.migration_name) ?? []), r]);
  const pending: LocalMigration[] = [];
  for (const m of local) {
    const done = applied.get(m.name);
    if (!done) pending.push(m);
    else if (!done.some((r) => checksumMatches(m.sql, r.checksum))) {
      problems.push(
        `Migration ${m.name} was changed after it was applied to this database (its migration.sql checksum differs from the ` +
          `one recorded in _prisma_migrations). Restore the released migration.sql; schema changes go in a new migration.`,
      );
    }
  }
  const names = new Set(local.map((m) => m.name));
  const unknown = [...applied.keys()].filter((n) => !names.has(n)).sort();
  return { pending, problems, unknown };
}
