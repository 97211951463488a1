// The export read on SQLite: its own read-only better-sqlite3 connection, statements prepared once and run in raw
// mode (rows as arrays) with .iterate(), the id list bound as one JSON array (json_each), so every batch reuses the
// same prepared statements whatever its size.
import Database from "better-sqlite3";
import type { CellReader } from "./assemble.ts";
import type { Cells, RowSource } from "./read.ts";

// Prisma's SQLite adapter writes DateTime as ISO-8601 text with "+00:00" (see the bulk writer's codec); the common
// shapes are rewritten without a Date object, anything else goes through Date as Prisma's reader would.
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(?:Z|\+00:00)$/;
export const sqliteCells: CellReader = {
  iso: (v) => (typeof v === "string" && ISO_UTC.test(v) ? `${v.slice(0, 23)}Z` : new Date(v as string | number).toISOString()),
  bool: (v) => v === 1 || v === true,
};

export class SqliteRowSource implements RowSource {
  readonly cells = sqliteCells;
  private readonly conn: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.conn = new Database(file, { readonly: true, fileMustExist: true, timeout: 15_000 });
    // One read transaction for the reader's life: every batch sees the same snapshot (WAL), as the PostgreSQL
    // reader's REPEATABLE READ transaction does, so an import or delete during a long export cannot mix states.
    this.conn.exec("BEGIN");
  }

  inIds(column: string): string {
    return `${column} IN (SELECT value FROM json_each(?))`;
  }

  idsArg(ids: readonly string[]): string {
    return JSON.stringify(ids);
  }

  private statement(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.conn.prepare(sql).raw(true);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  each(sql: string, args: readonly unknown[], onRow: (row: Cells) => void): Promise<void> {
    for (const row of this.statement(sql).iterate(...args) as IterableIterator<Cells>) onRow(row);
    return Promise.resolve();
  }

  all(sql: string, args: readonly unknown[]): Promise<Cells[]> {
    return Promise.resolve(this.statement(sql).all(...args) as Cells[]);
  }

  close(): Promise<void> {
    if (this.conn.inTransaction) this.conn.exec("COMMIT");
    this.conn.close();
    return Promise.resolve();
  }
}
