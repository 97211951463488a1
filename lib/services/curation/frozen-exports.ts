// A frozen version's exports, stored once after freezing: every format is rendered from the items one last time,
// compressed in pieces and kept in the database. Exports of the version then stream these bytes, which costs little
// more than writing the file (rendering reads every step row and builds every line: 5–10× the write), and nothing
// changed later (a step edited, a fork relinked, a trajectory re-imported) can alter what a frozen version exports.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { authorize, type ServiceContext } from "../context.ts";
import type { Db } from "../../db/client.ts";
import { findDatasetRules, findVersion, type DatasetSummary, type VersionSummary } from "../../db/repositories/datasets/datasets.ts";
import type { ExportReader, FrozenChunkRow } from "../../db/repositories/datasets/export-read/index.ts";
import {
  clearUnfinishedFrozenExport,
  completeFrozenExport,
  deleteFrozenExport,
  findFrozenExport,
  insertFrozenExportChunk,
  type FrozenExportView,
} from "../../db/repositories/datasets/frozen-exports.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../../domain/curation/types.ts";
import { AppError } from "../../errors.ts";
import { requireDataset } from "./manage-datasets.ts";
import { renderExport, storedManifest } from "./render-export.ts";
import { SIDECARS } from "../../exporters/registry.ts";
import { jobRunner, type JobKind } from "../../jobs/index.ts";
import { getJobContext } from "../job-context.ts";

/**
 * The key a stored export is kept under: the format, or `<format>.provenance` for a chat format's provenance sidecar
 * (stored beside its data, so exporting a frozen version streams both).
 */
export const storedKey = (format: ExportFormat, part: "data" | "provenance") => (part === "data" ? format : `${format}.provenance`);
/** Whether a stored key is a format's data (the count the versions list shows). */
export const isDataKey = (key: string) => (EXPORT_FORMATS as readonly string[]).includes(key);

// zlib's own thread pool does the (de)compression, beside the main thread that renders or writes.
const deflate = promisify(zlib.deflate);
const inflate = promisify(zlib.inflate);

/** Uncompressed bytes per stored chunk: large enough for a good compression ratio, small enough to keep memory flat. */
export const FROZEN_CHUNK_BYTES = 4 * 1024 * 1024;
/** Chunks read and inflated ahead of the one being written. */
const READ_AHEAD = 3;

export interface StoredExport {
  format: ExportFormat;
  /** false: it was stored already (by an earlier call or another process at the same moment). */
  stored: boolean;
  bytes: number;
  chunks: number;
}

/** Exports this process is storing, by version and format: a second request for the same one waits for the first. */
const storing = new Map<string, Promise<StoredExport>>();

/**
 * Store the exports of a frozen version (every format, or those given). Formats already stored are skipped unless
 * `replace`; chunks of a writer that died are replaced. `onProgress` reports items rendered of the format being stored.
 */
export async function storeFrozenExports(
  ctx: ServiceContext,
  input: {
    name: string;
    version: number;
    formats?: readonly ExportFormat[];
    /** Drop what is stored first and store again (a damaged store). */
    replace?: boolean;
    /** Tests use small chunks. */
    chunkBytes?: number;
  },
  onProgress?: (format: ExportFormat, done: number, total: number) => void,
): Promise<StoredExport[]> {
  authorize(ctx, "dataset:write");
  const d = await requireDataset(ctx, input.name);
  const v = await findVersion(ctx.db, d.id, input.version);
  if (!v) throw new AppError("NOT_FOUND", `dataset "${d.name}" has no version ${input.version}`);
  if (!v.frozenAt)
    throw new AppError("CONFLICT", `version ${v.version} of "${d.name}" is not frozen; only a frozen version's exports are stored`);
  const out: StoredExport[] = [];
  // Read once, and only if a format is stored now: the card shows them, and a selection keeps up to 10^5 ids.
  let rules: Promise<string | null> | undefined;
  const readRules = () => (rules ??= findDatasetRules(ctx.db, d.id));
  for (const format of input.formats ?? EXPORT_FORMATS) {
    const key = `${v.id}\u0000${format}`;
    const running = storing.get(key);
    if (running) {
      out.push({ ...(await running), stored: false });
      continue;
    }
    if (input.replace) await deleteFrozenExport(ctx.db, v.id, format);
    const chunkBytes = Math.max(1024, input.chunkBytes ?? FROZEN_CHUNK_BYTES);
    const job = (async () => {
      const data = await storeOne(ctx.db, d, v, format, readRules, chunkBytes, onProgress, "data");
      if (SIDECARS[format]?.includes("provenance")) {
        if (input.replace) await deleteFrozenExport(ctx.db, v.id, storedKey(format, "provenance"));
        await storeOne(ctx.db, d, v, format, readRules, chunkBytes, onProgress, "provenance");
      }
      return data;
    })().finally(() => storing.delete(key));
    storing.set(key, job);
    out.push(await job);
  }
  return out;
}

export interface FrozenExportsJobPayload {
  name: string;
  version: number;
}

/** Storing a frozen version's exports, as a background job (any worker; a retry skips what is stored already). */
export const FROZEN_EXPORTS_JOB: JobKind<FrozenExportsJobPayload> = {
  kind: "frozen-exports",
  maxAttempts: 3,
  async run({ db, payload, createdById, signal, progress }) {
    const ctx = await getJobContext(db, createdById);
    const formats = EXPORT_FORMATS.length;
    let index = 0;
    let current: ExportFormat | null = null;
    const out = await storeFrozenExports(ctx, payload, (format, done, total) => {
      signal.throwIfAborted();
      if (format !== current) [current, index] = [format, index + 1];
      progress(Math.floor(((index - 1 + (total ? done / total : 1)) / formats) * 1000), 1000);
    });
    const stored = out.filter((o) => o.stored).length;
    return { result: `${stored} of ${out.length} formats stored (${out.length - stored} were already)`, progressDone: 1000 };
  },
};

/**
 * Store a frozen version's exports in the background (freezing from the UI or the API returns at once). Exports asked
 * for before they are stored are rendered from the items, with the same bytes. A failure shows on the jobs page; the
 * version stays exportable by rendering, and `reterm dataset store-exports` stores it again.
 */
export async function startStoringFrozenExports(ctx: ServiceContext, input: FrozenExportsJobPayload): Promise<{ jobId: string }> {
  authorize(ctx, "dataset:write");
  const job = await jobRunner(ctx.db).enqueue(FROZEN_EXPORTS_JOB, input, {
    title: `storing the exports of ${input.name} v${input.version}`,
    createdById: ctx.actor.id || null,
    progressTotal: 1000,
  });
  return { jobId: job.id };
}

async function storeOne(
  db: Db,
  d: DatasetSummary,
  v: VersionSummary,
  format: ExportFormat,
  readRules: () => Promise<string | null>,
  chunkBytes: number,
  onProgress: ((format: ExportFormat, done: number, total: number) => void) | undefined,
  part: "data" | "provenance",
): Promise<StoredExport> {
  const key = storedKey(format, part);
  const have = await findFrozenExport(db, v.id, key);
  if (have) return { format, stored: false, bytes: have.bytes, chunks: have.chunks };
  await clearUnfinishedFrozenExport(db, v.id, key);
  // The override recorded at freezing is the one the rendered card would name; the data rows do not carry it.
  const rendered = renderExport(
    db,
    d,
    v,
    format,
    storedManifest(v)?.leakageOverride ?? null,
    part === "data" ? await readRules() : null,
    undefined,
    part,
  );
  const hash = createHash("sha256");
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let bytes = 0;
  let rows = 0;
  let lost = false;
  // One chunk compresses on zlib's thread while the next is rendered; its insert waits for the previous one.
  let inFlight: Promise<void> = Promise.resolve();
  const flush = () => {
    if (!pendingBytes) return;
    const raw = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const row = { seq: seq++, rowsEnd: rows, size: raw.length };
    const compressed = deflate(raw, { chunkSize: raw.length + 1024 });
    const previous = inFlight;
    inFlight = (async () => {
      const data = await compressed;
      await previous;
      if (!lost && !(await insertFrozenExportChunk(db, v.id, key, { ...row, data }))) lost = true;
    })();
    // Kept for the await below, not reported as unhandled meanwhile.
    inFlight.catch(() => undefined);
  };
  for await (const piece of rendered.pieces((done) => {
    rows = done;
    onProgress?.(format, done, v.itemCount);
  })) {
    const buf = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
    hash.update(buf);
    bytes += buf.length;
    pending.push(buf);
    pendingBytes += buf.length;
    if (pendingBytes >= chunkBytes) {
      await inFlight; // at most one chunk waits for the database: memory stays flat
      flush();
    }
    if (lost) break;
  }
  rows = v.itemCount;
  flush();
  await inFlight;
  // Another process is storing the same export (its chunk came first): its copy stands.
  const done =
    !lost && (await completeFrozenExport(db, v.id, key, { chunks: seq, bytes, sha256: hash.digest("hex"), card: rendered.card() }));
  return { format, stored: done, bytes, chunks: seq };
}

export interface FrozenRead {
  /** The data in order; read once. Closes the reader when done (or abandoned). */
  pieces(onRows?: (done: number) => void): AsyncGenerator<Buffer>;
  /** Releases the reader if `pieces` was never read to the end; safe to call twice. */
  close(): Promise<void>;
}

/**
 * The stored bytes of a frozen version's export, in order, read on the export reader (`reader`: its own connection,
 * one snapshot, raw driver cells) a few chunks ahead; each chunk is inflated, and checked by zlib, off the main thread.
 * Reading starts at once — while the export is still being checked and audited — so the first pieces are ready
 * when the caller asks for them. The read takes over `reader` and closes it.
 */
export function startFrozenRead(reader: ExportReader, versionId: string, format: string, e: FrozenExportView): FrozenRead {
  const damaged = (why: string) =>
    new Error(
      `the stored ${format} export of this version is damaged (${why}); nothing was written; store it again with \`reterm dataset store-exports NAME@VERSION --replace\``,
    );
  const fetchChunk = async (seq: number): Promise<{ row: FrozenChunkRow; raw: Buffer }> => {
    const [row] = await reader.frozenChunks(versionId, format, seq, 1);
    if (!row || row.seq !== seq) throw damaged(`chunk ${seq} of ${e.chunks} is missing`);
    let raw: Buffer;
    try {
      // One output buffer of the known size: with zlib's default 16 KB the thread pool handed back every 16 KB.
      raw = await inflate(row.data, { chunkSize: Math.max(64, row.size) });
    } catch (err) {
      throw damaged(`chunk ${seq}: ${(err as Error).message}`);
    }
    if (raw.length !== row.size) throw damaged(`chunk ${seq} holds ${raw.length} bytes, not ${row.size}`);
    return { row, raw };
  };
  const ahead: Promise<{ row: FrozenChunkRow; raw: Buffer }>[] = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < READ_AHEAD && next < e.chunks) {
      const p = fetchChunk(next++);
      p.catch(() => undefined); // awaited in order below
      ahead.push(p);
    }
  };
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.allSettled(ahead).then(() => reader.close()));
  let started = false;
  fill();
  return {
    async *pieces(onRows) {
      if (started || closing) throw new Error("a stored export's pieces are read once");
      started = true;
      try {
        let bytes = 0;
        while (ahead.length) {
          const { row, raw } = await ahead.shift()!;
          fill();
          bytes += raw.length;
          yield raw;
          onRows?.(row.rowsEnd);
        }
        if (bytes !== e.bytes) throw damaged(`${bytes} bytes read, ${e.bytes} stored`);
      } finally {
        await close();
      }
    },
    close,
  };
}
