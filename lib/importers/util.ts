// Shared reading and error-reporting helpers for importers: line streaming with bounded memory, whole-JSON reads
// with a size cap and line-accurate syntax errors, and zod issues turned into "file:line: field: message".
import { StringDecoder } from "node:string_decoder";
import type { z } from "zod";
import { trajectorySchema, type NormalizedTrajectory, type TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportIssue, ImportRecord, ImportSource } from "./types.ts";
import { jsonErrorOffset } from "./json-locate.ts";

/** Whole-file formats (one JSON document) larger than this are refused with a clear message. */
export const MAX_JSON_DOCUMENT_BYTES = 512 * 1024 * 1024;
/**
 * One record read whole (a JSON document, an archive entry) larger than this is refused with a clear message naming
 * the file: parsing it would need several times its size in memory, and the CLI runs with a 512 MB heap.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** Nesting deeper than this in a record is refused: hashing and serializing it would overflow the stack. */
export const MAX_NESTING = 1000;
/** A single JSONL line longer than this (characters) is reported as an error, not parsed: it bounds memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** "steps[12].observation" from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), "");
}

export function zodIssues(error: z.ZodError, file: string, line?: number, prefix = ""): ImportIssue[] {
  return error.issues.slice(0, 5).map((i) => {
    const path = formatPath([...(prefix ? [prefix] : []), ...i.path]);
    return { file, line, path: path || undefined, message: i.message };
  });
}

export function issue(file: string, message: string, line?: number, path?: string): ImportRecord {
  return { ok: false, issue: { file, line, path, message } };
}

/** A problem in a source whose trajectory is still imported (partially): reported, not counted as a failure. */
export function warning(file: string, message: string, line?: number, path?: string): ImportRecord {
  return { ok: false, issue: { file, line, path, message, severity: "warning" } };
}

/** Keep what could not be read of a source with the trajectory read from it (stored, shown, filterable). */
export function withWarnings(record: ImportRecord, warnings: readonly ImportIssue[]): ImportRecord {
  if (!record.ok || !warnings.length) return record;
  const kept = warnings.map(({ severity: _severity, ...w }) => w);
  return { ...record, value: { ...record.value, warnings: [...(record.value.warnings ?? []), ...kept] } };
}

/**
 * Validate a draft trajectory against the native schema: the last line of defence for every importer, so that
 * nothing reaches the database unchecked.
 */
export function normalized(draft: TrajectoryDraft | unknown, sourceFormat: string, file: string, line?: number): ImportRecord {
  const deep = tooDeep(draft, MAX_NESTING);
  if (deep !== null)
    return issue(file, `the record is nested more than ${MAX_NESTING} levels deep and was not read`, line, deep || undefined);
  const parsed = trajectorySchema.safeParse(draft);
  if (!parsed.success) return schemaIssue(parsed.error, file, line);
  const value: NormalizedTrajectory = { trajectory: parsed.data, sourceFormat, sourceFile: file };
  return { ok: true, value, file, line };
}

/**
 * Lines of a file source with 1-based numbers. Pulls the stream chunk by chunk, so a slow consumer (the database)
 * holds back reading: memory stays bounded by one chunk plus the longest line. (readline's async iterator buffers
 * lines without limit when the consumer is slower than the disk.)
 */
export async function* readLines(
  source: Extract<ImportSource, { kind: "file" }>,
  maxLine = MAX_LINE_BYTES,
): AsyncGenerator<{ text: string; lineNo: number; tooLong?: boolean }> {
  const decoder = new StringDecoder("utf8");
  // The unfinished line is kept as its pieces and joined once, when its newline arrives: searching and re-joining
  // the whole carry on every chunk made a 10 MB line cost minutes (quadratic in the line's length).
  const pieces: string[] = [];
  let carried = 0;
  let lineNo = 0;
  let skipping = false;
  const line = (text: string) => (text.endsWith("\r") ? text.slice(0, -1) : text);
  for await (const chunk of source.open()) {
    let text = typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer);
    if (skipping) {
      // Inside an over-long line: drop everything up to its end.
      const end = text.indexOf("\n");
      if (end === -1) continue;
      skipping = false;
      text = text.slice(end + 1);
    }
    let start = 0;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      lineNo++;
      const head = text.slice(start, nl);
      if (pieces.length) {
        pieces.push(head);
        yield { text: line(pieces.join("")), lineNo };
        pieces.length = 0;
        carried = 0;
      } else yield { text: line(head), lineNo };
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    if (start < text.length) {
      pieces.push(start ? text.slice(start) : text);
      carried += text.length - start;
    }
    if (carried > maxLine) {
      lineNo++;
      yield { text: "", lineNo, tooLong: true };
      pieces.length = 0;
      carried = 0;
      skipping = true;
    }
  }
  const tail = pieces.join("") + decoder.end();
  if (tail && !skipping) yield { text: line(tail), lineNo: lineNo + 1 };
}

/** 1-based line and column of a character offset. */
export function lineOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/** The whole file in memory; a RangeError with `tooLarge` once it passes `maxBytes`. */
export async function readBytes(source: Extract<ImportSource, { kind: "file" }>, maxBytes: number, tooLarge: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source.open()) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > maxBytes) throw new RangeError(tooLarge);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export async function readText(source: Extract<ImportSource, { kind: "file" }>): Promise<string> {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const tooLarge = `the file is one record of ${source.size > MAX_RECORD_BYTES ? mb(source.size) : `more than ${mb(MAX_RECORD_BYTES)}`} (at most ${mb(MAX_RECORD_BYTES)} per record, so that reading it stays within memory); split it or convert it to JSONL`;
  if (source.size > MAX_RECORD_BYTES && !/\.gz$/i.test(source.path)) throw new RangeError(tooLarge);
  const bytes = await readBytes(source, MAX_RECORD_BYTES, tooLarge);
  return bytes.toString("utf8");
}

/** Parse one JSON document; on failure returns an issue with the line of the syntax error. */
export async function readJson(
  source: Extract<ImportSource, { kind: "file" }>,
): Promise<{ ok: true; value: unknown; text: string } | { ok: false; record: ImportRecord }> {
  let text: string;
  try {
    text = await readText(source);
  } catch (e) {
    return { ok: false, record: issue(source.displayPath, (e as Error).message) };
  }
  if (!text.trim()) return { ok: false, record: issue(source.displayPath, "file is empty") };
  if (text.includes("\u0000")) return { ok: false, record: issue(source.displayPath, "file is binary, not JSON text") };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // UTF-8 byte-order mark
  try {
    return { ok: true, value: JSON.parse(text), text };
  } catch (e) {
    return { ok: false, record: jsonSyntaxIssue(source.displayPath, text, e as Error) };
  }
}

export function jsonSyntaxIssue(file: string, text: string, e: Error, baseLine = 0): ImportRecord {
  const offset = jsonErrorOffset(text);
  const where = offset >= 0 ? lineOf(text, offset) : undefined;
  const line = where ? baseLine + where.line : baseLine || undefined;
  const short = e.message
    .replace(/ in JSON at position \d+.*$/, "")
    .replace(/\s*\(line \d+ column \d+\)$/, "")
    .replace(/, "[\s\S]*" is not valid JSON$/, "");
  return issue(file, `invalid JSON: ${short}`, line);
}

/** Best-effort text of message content that may be a string or an array of content parts. */
export function contentText(content: unknown): string | undefined {
  if (content === null || content === undefined) return undefined;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((p) =>
        typeof p === "string"
          ? p
          : p && typeof p === "object" && "text" in p && typeof p.text === "string"
            ? p.text
            : p && typeof p === "object" && "type" in p
              ? `[${String(p.type)}]`
              : "",
      )
      .filter(Boolean);
    return parts.join("\n");
  }
  return JSON.stringify(content);
}

/** Lower-cased file name, with a trailing .gz removed. */
export function baseName(path: string): string {
  return (path.split("/").pop() ?? path).toLowerCase().replace(/\.gz$/, "");
}

/**
 * For one import unit (a trial folder): problems found while still producing its trajectories are warnings kept
 * with them; if the unit yields no trajectory at all, they are errors. The unit's records are held back until it
 * ends (a trial holds a few trajectories).
 */
export async function* issuesAsWarningsWhenImported(unit: AsyncIterable<ImportRecord>): AsyncGenerator<ImportRecord> {
  const trajectories: ImportRecord[] = [];
  const issues: ImportIssue[] = [];
  for await (const r of unit) {
    if (r.ok) trajectories.push(r);
    else issues.push(r.issue);
  }
  if (!trajectories.length) {
    for (const i of issues) yield { ok: false, issue: i };
    return;
  }
  for (const t of trajectories) yield withWarnings(t, issues);
}

/** One issue for a record that failed its schema: the first problem with its field path, counting the rest. */
export function schemaIssue(error: z.ZodError, file: string, line?: number, prefix = ""): ImportRecord {
  const [first] = zodIssues(error, file, line, prefix);
  if (!first) return issue(file, "invalid record", line, prefix || undefined);
  const more = error.issues.length - 1;
  return { ok: false, issue: { ...first, message: first.message + (more > 0 ? ` (and ${more} more)` : "") } };
}

/**
 * Path of the first value nested deeper than `max` (iterative: a record 100,000 levels deep must not overflow the
 * stack here either), or null.
 */
export function tooDeep(value: unknown, max: number): string | null {
  const stack: [unknown, number, PropertyKey[]][] = [[value, 0, []]];
  while (stack.length) {
    const [v, depth, at] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return formatPath(at) + "…";
    const entries: [PropertyKey, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) if (typeof x === "object" && x !== null) stack.push([x, depth + 1, at.length < 8 ? [...at, k] : at]);
  }
  return null;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** ISO-8601 with an explicit zone (zone-less stamps are taken as UTC); undefined when absent or unparseable. */
export function toIso(ts: unknown): string | undefined {
  if (typeof ts === "number" && Number.isFinite(ts) && ts > 0) return new Date(ts > 1e12 ? ts : ts * 1000).toISOString();
  if (typeof ts !== "string" || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(ts)) return undefined;
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(ts) ? ts : `${ts}Z`;
  // Date.parse rejects more than millisecond precision in some engines; Python writes microseconds.
  const ms = Date.parse(zoned.replace(" ", "T").replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function nonNegativeInt(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
}
