// COPY … FROM STDIN for the PostgreSQL bulk writer (pg-copy-streams). COPY skips what a batched INSERT … unnest pays
// for: no parameter arrays built on the client and parsed again by the server, no executor row by row — rows go
// straight from the text stream into the table. Text format: tab-separated, \N for NULL, backslash escapes.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Cell } from "./rows.ts";

const SPECIAL = /[\\\n\r\t]/;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One value in COPY text format. NUL never reaches here (rows.ts replaces it; PostgreSQL text cannot hold it). */
export function copyText(v: Cell): string {
  if (v === null) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
  return SPECIAL.test(v) ? v.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!) : v;
}

/** The rows as COPY text, in pieces of about `chunkChars` so the stream never holds a whole batch as one string. */
export function* copyLines(rows: readonly Cell[][], chunkChars = 256 * 1024): Generator<string> {
  let buf = "";
  for (const row of rows) {
    buf += `${row.map(copyText).join("\t")}\n`;
    if (buf.length >= chunkChars) {
      yield buf;
      buf = "";
    }
  }
  if (buf) yield buf;
}

/** COPY `rows` into `table` on `client` (inside the caller's transaction: a failure aborts it like any statement). */
export async function copyRows(client: pg.ClientBase, table: string, cols: readonly string[], rows: readonly Cell[][]): Promise<void> {
  if (!rows.length) return;
  const stream = client.query(copyFrom(`COPY "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(copyLines(rows)), stream);
}
