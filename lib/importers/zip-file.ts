// Unpacking a ZIP archive that sits on disk (uploads) without trusting it: the central directory is read from the end
// of the file and checked against a budget (entry count, total declared size, compression ratio) BEFORE anything is
// inflated, then each entry is inflated to disk and cut off the moment it produces more than it declared (a bomb
// that lies about its sizes): small entries in one bounded call, large ones streamed, so memory stays at a few MB.
import fs from "node:fs";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import {
  localDataOffset,
  locateCentralDirectory,
  parseCentralDirectory,
  unsafeEntryName,
  ZIP_TAIL_BYTES,
  DAMAGED,
  unpackEntryData,
  ZipEntryOverflowError,
  ZipFormatError,
  zipBudgetProblem,
  type ZipBudget,
  type ZipEntry,
} from "./zip-entries.ts";

export { ZipFormatError };

/** An entry's name for messages: quoted, and cut short (names are attacker-chosen and may be 64 KB long). */
function label(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}

/** Thrown when the archive is well-formed but over budget (the caller answers 413, not 422). */
export class ZipBudgetError extends Error {}

function readAt(fd: number, at: number, length: number): Uint8Array {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, at);
  return buf.subarray(0, n);
}

/** The archive's entries, from its central directory only; refuses an over-budget archive before reading entries. */
export function listZipFileEntries(file: string, budget: ZipBudget): ZipEntry[] {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const tailStart = Math.max(0, size - ZIP_TAIL_BYTES);
    const { count, offset, size: cdSize } = locateCentralDirectory(readAt(fd, tailStart, size - tailStart), tailStart);
    // Counted from the end record, before a single directory entry is read: 20,000 tiny entries cost nothing.
    if (count > budget.maxEntries) throw new ZipBudgetError(`the archive has ${count} entries, more than the ${budget.maxEntries} allowed`);
    if (offset + cdSize > size) throw new ZipFormatError("the central directory lies beyond the end of the file: the archive is truncated");
    const entries = parseCentralDirectory(readAt(fd, offset, cdSize), count);
    const problem = zipBudgetProblem(entries, budget);
    if (problem) throw new ZipBudgetError(problem);
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

/** Counts bytes and CRC as they pass; fails as soon as more than `limit` bytes come out. */
class Meter extends Transform {
  bytes = 0;
  crc = 0;
  constructor(
    private readonly limit: number,
    private readonly name: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      cb(new ZipBudgetError(`entry ${label(this.name)} unpacks to more than the ${this.limit} bytes it declares: a zip bomb`));
      return;
    }
    this.crc = zlib.crc32(chunk, this.crc);
    cb(null, chunk);
  }
}

/** Entries up to this size are inflated in one call (bounded by maxOutputLength); larger ones are streamed. */
const SMALL_ENTRY_BYTES = 8 * 1024 * 1024;

function damaged(e: ZipEntry): ZipFormatError {
  return new ZipFormatError(`entry ${label(e.name)}: ${DAMAGED}`);
}

function extractSmall(fd: number, e: ZipEntry, start: number, target: string): void {
  const raw = readAt(fd, start, e.compressedSize);
  if (raw.length !== e.compressedSize) throw new ZipFormatError(`entry ${label(e.name)}: its data is cut off: the archive is truncated`);
  let data: Uint8Array;
  try {
    data = unpackEntryData(raw, e);
  } catch (err) {
    if (err instanceof ZipEntryOverflowError) throw new ZipBudgetError(`entry ${label(e.name)} ${err.message}`);
    if (err instanceof ZipFormatError) throw new ZipFormatError(`entry ${label(e.name)}: ${err.message}`);
    throw err;
  }
  fs.writeFileSync(target, data);
}

async function extractEntry(file: string, fd: number, e: ZipEntry, target: string): Promise<void> {
  const start = localDataOffset(readAt(fd, e.localOffset, 30), e);
  if (e.method !== 0 && e.method !== 8)
    throw new ZipFormatError(`entry ${label(e.name)}: compression method ${e.method} is not supported (only stored and deflate)`);
  if (e.size <= SMALL_ENTRY_BYTES && e.compressedSize <= SMALL_ENTRY_BYTES) return extractSmall(fd, e, start, target);
  const meter = new Meter(e.size, e.name);
  const sink = fs.createWriteStream(target);
  try {
    const source = fs.createReadStream(file, { start, end: start + e.compressedSize - 1, highWaterMark: 256 * 1024 });
    if (e.method === 0) await pipeline(source, meter, sink);
    else await pipeline(source, zlib.createInflateRaw(), meter, sink);
  } catch (err) {
    if (err instanceof ZipBudgetError) throw err;
    throw new ZipFormatError(`entry ${label(e.name)}: cannot inflate it (${(err as Error).message})`);
  }
  if (meter.bytes !== e.size || (e.size > 0 && meter.crc !== e.crc)) throw damaged(e);
}

/**
 * Unpack `file` into `dir` (which must exist). Refuses unsafe names (absolute, `..`) and over-budget archives before
 * writing anything; directories are created as needed, directory entries themselves are skipped.
 */
export async function unpackZipFile(file: string, dir: string, budget: ZipBudget): Promise<number> {
  const entries = listZipFileEntries(file, budget);
  const root = path.resolve(dir);
  const targets = entries.map((e) => {
    const why = unsafeEntryName(e.name.replace(/\/$/, "") || e.name);
    const target = path.resolve(root, e.name);
    if (why || !target.startsWith(root + path.sep))
      throw new ZipFormatError(`zip entry ${label(e.name)} points outside the archive (${why ?? "path escapes the folder"})`);
    return target;
  });
  const fd = fs.openSync(file, "r");
  let written = 0;
  try {
    for (const [i, e] of entries.entries()) {
      if (e.name.endsWith("/")) continue;
      fs.mkdirSync(path.dirname(targets[i]!), { recursive: true });
      await extractEntry(file, fd, e, targets[i]!);
      written++;
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
