// Inspect AI `.eval` logs (formats.md §10): a ZIP archive of JSON parts — header.json (the log without its samples),
// samples/<id>_epoch_<n>.json (one per sample × epoch), summaries, reductions, and a _journal/ written while the eval
// ran. This module opens the archive within fixed bounds and gives inspect.ts the same logical document as the JSON
// form: the header fields, then the samples one at a time in Inspect's own order (so both forms give identical
// trajectories without holding every sample in memory at once).
import { nullNonFinite } from "./chat-steps.ts";
import type { ImportRecord, ImportSource } from "./types.ts";
import { baseName, isRecord, issue, jsonSyntaxIssue, MAX_JSON_DOCUMENT_BYTES, MAX_RECORD_BYTES, readBytes } from "./util.ts";
import { listZipEntries, readZipEntry, unsafeEntryName, type ZipEntry } from "./zip-entries.ts";

type FileSource = Extract<ImportSource, { kind: "file" }>;

export interface EvalLimits {
  /** The archive itself: it is held in memory while its samples are read. */
  maxArchiveBytes: number;
  /** One JSON part, unpacked: the bound a whole JSON-form log has. */
  maxEntryBytes: number;
  /** Every part that is read, unpacked (zip bombs). */
  maxUnpackedBytes: number;
  maxEntries: number;
}

export const EVAL_LIMITS: EvalLimits = {
  maxArchiveBytes: MAX_JSON_DOCUMENT_BYTES,
  maxEntryBytes: MAX_RECORD_BYTES,
  maxUnpackedBytes: 4 * MAX_JSON_DOCUMENT_BYTES,
  maxEntries: 100_000,
};

const ZIP_MAGIC = "PK\u0003\u0004";

/** A `.eval` file that starts like a ZIP archive. `head` is decoded text, but the four magic bytes are ASCII. */
export function isEvalArchive(source: FileSource): boolean {
  return baseName(source.path).endsWith(".eval") && source.head.startsWith(ZIP_MAGIC);
}

export interface EvalArchive {
  /** The log without its samples: version, status, eval, plan, results, stats, error… */
  header: Record<string, unknown>;
  /** Where the header was read, for messages: "run.eval[header.json]". */
  headerFile: string;
  /** Sample entries in Inspect's order: by epoch, then by id (integer ids numerically). */
  samples: string[];
  fileOf(entry: string): string;
  /** One sample's JSON, or an issue naming the archive and the entry. */
  readSample(entry: string): Parsed;
}

type Parsed = { ok: true; value: unknown } | { ok: false; record: ImportRecord };

/**
 * Where the header lives: header.json since 2024; before that start.json + results.json; a log whose eval is still
 * running (or died) has only _journal/start.json, and its finished samples are still worth importing.
 */
const HEADER_LAYOUTS = [["header.json"], ["start.json", "results.json"], ["_journal/start.json"]] as const;
const SAMPLE_ENTRY = /^samples\/[^/]+\.json$/;
const SAMPLE_NAME = /^samples\/(.+)_epoch_(\d+)\.json$/;

function sizeText(n: number): string {
  return n < 1024 * 1024 ? `${n} bytes` : `${Math.round(n / 1024 / 1024)} MB`;
}

/** Inspect's sort_samples key: (epoch, id), integer ids zero-padded so that 2 comes before 10. */
function sampleKey(name: string): [number, string] {
  const m = SAMPLE_NAME.exec(name);
  if (!m) return [Number.POSITIVE_INFINITY, name];
  return [Number(m[2]), /^\d+$/.test(m[1]!) ? m[1]!.padStart(20, "0") : m[1]!];
}

function compareSamples(a: string, b: string): number {
  const [ea, ia] = sampleKey(a);
  const [eb, ib] = sampleKey(b);
  if (ea !== eb) return ea < eb ? -1 : 1;
  if (ia !== ib) return ia < ib ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function parseEntry(bytes: Uint8Array, entry: ZipEntry, file: string, maxBytes: number): Parsed {
  let data: Uint8Array;
  try {
    data = readZipEntry(bytes, entry, maxBytes);
  } catch (e) {
    return { ok: false, record: issue(file, `cannot read this entry: ${e instanceof Error ? e.message : String(e)}`) };
  }
  let text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) return { ok: false, record: issue(file, "entry is empty") };
  if (text.includes("\u0000")) return { ok: false, record: issue(file, "entry is binary, not JSON text") };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    // Python writes bare NaN/Infinity; read them as null, as the JSON form is read.
    if (/NaN|Infinity/.test(text)) {
      try {
        return { ok: true, value: JSON.parse(nullNonFinite(text)) };
      } catch {
        // Report the original syntax error below.
      }
    }
    return { ok: false, record: jsonSyntaxIssue(file, text, e instanceof Error ? e : new Error(String(e))) };
  }
}

type Opened = { ok: true; archive: EvalArchive } | { ok: false; record: ImportRecord };

/** Open a `.eval` archive: refuses unsafe entry names and parts that would unpack beyond `limits`. Never throws. */
export async function openEvalArchive(source: FileSource, limits: EvalLimits = EVAL_LIMITS): Promise<Opened> {
  const file = source.displayPath;
  const fileOf = (entry: string) => `${file}[${entry}]`;
  const fail = (message: string, entry?: string): Opened => ({ ok: false, record: issue(entry ? fileOf(entry) : file, message) });
  const tooLarge = `the archive is larger than ${sizeText(limits.maxArchiveBytes)}; refusing to read it`;
  if (source.size > limits.maxArchiveBytes) return fail(tooLarge);
  let bytes: Uint8Array;
  let entries: ZipEntry[];
  try {
    bytes = await readBytes(source, limits.maxArchiveBytes, tooLarge);
    entries = listZipEntries(bytes, limits.maxEntries);
  } catch (e) {
    return fail(`not a readable ZIP archive: ${e instanceof Error ? e.message : String(e)}`);
  }
  for (const e of entries) {
    const why = unsafeEntryName(e.name);
    if (why) return fail(`entry ${JSON.stringify(e.name)} has an unsafe name (${why}); refusing the archive`);
  }
  // A name written twice: the last one wins, as in Python's zipfile (which wrote it).
  const byName = new Map(entries.filter((e) => !e.name.endsWith("/")).map((e) => [e.name, e]));
  const layout = HEADER_LAYOUTS.find((parts) => parts.every((p) => byName.has(p)));
  if (!layout) return fail("not an Inspect log: the archive has no header.json (nor start.json and results.json, nor _journal/start.json)");
  const samples = [...byName.keys()].filter((n) => SAMPLE_ENTRY.test(n)).sort(compareSamples);
  const wanted = [...layout, ...samples].flatMap((n) => byName.get(n) ?? []);
  for (const e of wanted) {
    if (e.size > limits.maxEntryBytes)
      return fail(
        `entry unpacks to ${sizeText(e.size)}, more than the ${sizeText(limits.maxEntryBytes)} limit; refusing the archive`,
        e.name,
      );
  }
  const total = wanted.reduce((n, e) => n + e.size, 0);
  if (total > limits.maxUnpackedBytes)
    return fail(`the log unpacks to ${sizeText(total)}, more than the ${sizeText(limits.maxUnpackedBytes)} limit; refusing the archive`);

  const header: Record<string, unknown> = {};
  for (const name of layout) {
    const parsed = parseEntry(bytes, byName.get(name)!, fileOf(name), limits.maxEntryBytes);
    if (!parsed.ok) return parsed;
    if (!isRecord(parsed.value)) return fail("expected a JSON object", name);
    for (const [k, v] of Object.entries(parsed.value)) if (k !== "samples") header[k] = v;
  }
  if (layout[0] === "_journal/start.json" && header.status === undefined) header.status = "started";
  return {
    ok: true,
    archive: {
      header,
      headerFile: fileOf(layout[0]),
      samples,
      fileOf,
      readSample: (entry) => {
        const e = byName.get(entry);
        return e ? parseEntry(bytes, e, fileOf(entry), limits.maxEntryBytes) : { ok: false, record: issue(fileOf(entry), "no such entry") };
      },
    },
  };
}
