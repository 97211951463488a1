// The export read on PostgreSQL: its own pg client holding one read-only REPEATABLE READ transaction (every batch of
// an export sees the same snapshot), each query run as a server-side cursor fetched a block of rows at a time (rows
// as arrays), so a batch with huge steps or recordings is never held twice. Queries run one after another on the
// client (the export reads the next batch while the current one is written: those calls queue here).
import pg from "pg";
import type { CellReader } from "./assemble.ts";
import type { Cells, RowSource } from "./read.ts";

// Rows per FETCH: steps and labels are small on average; recording chunks are up to 64 KB each (≈4 MB per block).
const FETCH_ROWS = 1000;
const FETCH_WIDE_ROWS = 64;
const TIMESTAMP_OID = 1114; // timestamp(3) without time zone, holding UTC (how Prisma maps DateTime)

// Timestamps arrive as text ("2026-10-01 08:00:24.33", trailing zeros of the fraction dropped) and are rewritten to
// the ISO form Date#toISOString gives, without a Date object; other shapes (BC, year > 9999) go through Date.
const PG_TS = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/;
export const pgCells: CellReader = {
  iso(v) {
    const m = PG_TS.exec(v as string);
    if (!m) return new Date(`${v as string}Z`).toISOString();
    return `${m[1]}T${m[2]}.${(m[3] ?? "").padEnd(3, "0").slice(0, 3)}Z`;
  },
  bool: (v) => v === true,
};

const textTimestamps = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? (s: string) => s : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The shared SQL's `?` placeholders as PostgreSQL's `$1`, `$2`, … */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export class PgRowSource implements RowSource {
  readonly cells = pgCells;
  private readonly client: pg.Client;
  private queue: Promise<unknown>;

  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url, types: textTimestamps });
    this.queue = this.client.connect().then(() => this.client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
  }

  inIds(column: string): string {
    return `${column} = ANY(?::text[])`;
  }

  idsArg(ids: readonly string[]): readonly string[] {
    return ids;
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  each(sql: string, args: readonly unknown[], onRow: (row: Cells) => void, wide = false): Promise<void> {
    const block = wide ? FETCH_WIDE_ROWS : FETCH_ROWS;
    const text = numbered(sql);
    return this.run(async () => {
      await this.client.query({ text: `DECLARE export_rows NO SCROLL CURSOR FOR ${text}`, values: args as unknown[] });
      try {
        for (;;) {
          const res = await this.client.query<unknown[]>({ text: `FETCH ${block} FROM export_rows`, rowMode: "array" as const });
          for (const row of res.rows) onRow(row);
          if (res.rows.length < block) break;
        }
      } finally {
        await this.client.query("CLOSE export_rows");
      }
    });
  }

  all(sql: string, args: readonly unknown[]): Promise<Cells[]> {
    return this.run(
      async () => (await this.client.query<unknown[]>({ text: numbered(sql), values: args as unknown[], rowMode: "array" as const })).rows,
    );
  }

  async close(): Promise<void> {
    await this.queue;
    try {
      await this.client.query("COMMIT");
    } finally {
      await this.client.end();
    }
  }
}
