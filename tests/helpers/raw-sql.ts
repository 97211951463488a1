// Plain SQL on a test database through its driver, below the app's layers: for tests that build or inspect a
// database the way another program (Prisma's engine, an earlier release) left it.
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseConfig } from "../../lib/env.ts";
import { Prisma } from "../../lib/db/generated/sqlite/client.ts";

/** A bound SQL fragment, for tests that hand a statement to a lib/db function taking one (Prisma.sql). */
export const sqlFragment = Prisma.sql;

/** Run a script of one or more statements (no parameters), outside any transaction. */
export async function execSql(config: DatabaseConfig, sql: string): Promise<void> {
  if (config.provider === "sqlite") {
    const db = new Database(config.file);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const c = new pg.Client({ connectionString: config.url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Rows of one query; `?` placeholders are turned into PostgreSQL's $n there. */
export async function querySql<T = Record<string, unknown>>(config: DatabaseConfig, sql: string, args: unknown[] = []): Promise<T[]> {
  if (config.provider === "sqlite") {
    const db = new Database(config.file);
    try {
      const stmt = db.prepare(sql);
      return (stmt.reader ? stmt.all(...args) : (stmt.run(...args), [])) as T[];
    } finally {
      db.close();
    }
  }
  let n = 0;
  const c = new pg.Client({ connectionString: config.url });
  await c.connect();
  try {
    return (
      await c.query(
        sql.replace(/\?/g, () => `$${++n}`),
        args,
      )
    ).rows as T[];
  } finally {
    await c.end();
  }
}

/** Names of the database's tables (not views, not SQLite's own). */
export async function tableNames(config: DatabaseConfig): Promise<string[]> {
  const rows =
    config.provider === "sqlite"
      ? await querySql<{ name: string }>(
          config,
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
        )
      : await querySql<{ name: string }>(config, `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rows.map((r) => r.name);
}

/** One PostgreSQL connection kept open, for a test playing another program's transaction beside the app's. */
export async function openPgSession(
  url: string,
): Promise<{ query: (sql: string, args?: unknown[]) => Promise<{ rowCount: number | null }>; end: () => Promise<void> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return { query: (sql, args = []) => c.query(sql, args), end: () => c.end() };
}
