// Reading entries of a ZIP archive held in memory, one at a time, for importers of ZIP-based formats (Inspect .eval).
// A library unzip inflates everything it keeps in one go, cannot say which entry was corrupt, and does not expose the
// entries' checksums, so the central directory is walked here and each entry is inflated on its own when the caller
// asks for it (node:zlib, the one inflate path for in-memory and on-disk archives: unpackEntryData), then checked
// against its CRC. Sizes come from the central directory;
// entries are inflated into a buffer of exactly that size, so a lying size yields a short or failed entry (caught
// by the length and CRC checks), never more memory than the caller agreed to.
import { crc32, inflateRawSync } from "node:zlib";

export class ZipFormatError extends Error {}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

function u16(b: Uint8Array, at: number): number {
  if (at + 2 > b.length) throw new ZipFormatError("the archive is truncated");
  return b[at]! | (b[at + 1]! << 8);
}
function u32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) throw new ZipFormatError("the archive is truncated");
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 2 ** 32;
}

/** Zip64 sizes and offset, which replace the 0xFFFFFFFF placeholders of the fixed header, in this order. */
function zip64Fields(b: Uint8Array, extra: number, length: number, e: ZipEntry): void {
  for (let p = extra; p + 4 <= extra + length; p += 4 + u16(b, p + 2)) {
    if (u16(b, p) !== 1) continue;
    let q = p + 4;
    if (e.size === 0xffffffff) {
      e.size = u64(b, q);
      q += 8;
    }
    if (e.compressedSize === 0xffffffff) {
      e.compressedSize = u64(b, q);
      q += 8;
    }
    if (e.localOffset === 0xffffffff) e.localOffset = u64(b, q);
    return;
  }
}

/** Where the central directory is, read from the end-of-central-directory record(s) in `tail` (the archive's last bytes). */
export function locateCentralDirectory(tail: Uint8Array, tailStart: number): { count: number; offset: number; size: number } {
  let end = -1;
  for (let p = tail.length - 22; p >= 0 && p >= tail.length - 22 - MAX_COMMENT; p--) {
    if (u32(tail, p) === EOCD) {
      end = p;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError("no end-of-central-directory record: the archive is truncated or not a ZIP file");
  let count = u16(tail, end + 10);
  let size = u32(tail, end + 12);
  let offset = u32(tail, end + 16);
  if ((count === 0xffff || offset === 0xffffffff || size === 0xffffffff) && end >= 20 && u32(tail, end - 20) === EOCD64_LOCATOR) {
    const at = u64(tail, end - 20 + 8) - tailStart;
    if (at < 0 || u32(tail, at) !== EOCD64) throw new ZipFormatError("corrupt zip64 end-of-central-directory record");
    count = u64(tail, at + 32);
    size = u64(tail, at + 40);
    offset = u64(tail, at + 48);
  }
  return { count, offset, size };
}

/** How many bytes from the end of an archive hold its end records: enough for the longest comment and zip64. */
export const ZIP_TAIL_BYTES = 22 + MAX_COMMENT + 20 + 56;

/** The entries of a central directory held in `cd` (its bytes only, from its first record). */
export function parseCentralDirectory(cd: Uint8Array, count: number): ZipEntry[] {
  const decoder = new TextDecoder("utf-8");
  const entries: ZipEntry[] = [];
  for (let i = 0, p = 0; i < count; i++) {
    if (u32(cd, p) !== CENTRAL)
      throw new ZipFormatError(`corrupt central directory (entry ${i + 1} of ${count}): the archive is truncated or damaged`);
    const nameLength = u16(cd, p + 28);
    const extraLength = u16(cd, p + 30);
    if (p + 46 + nameLength > cd.length) throw new ZipFormatError("the archive is truncated");
    const e: ZipEntry = {
      name: decoder.decode(cd.subarray(p + 46, p + 46 + nameLength)),
      method: u16(cd, p + 10),
      crc: u32(cd, p + 16),
      compressedSize: u32(cd, p + 20),
      size: u32(cd, p + 24),
      localOffset: u32(cd, p + 42),
    };
    zip64Fields(cd, p + 46 + nameLength, extraLength, e);
    entries.push(e);
    p += 46 + nameLength + extraLength + u16(cd, p + 32);
  }
  return entries;
}

/** Every entry of the central directory; refuses more than `maxEntries` before reading them. */
export function listZipEntries(b: Uint8Array, maxEntries: number): ZipEntry[] {
  const { count, offset } = locateCentralDirectory(b, 0);
  if (count > maxEntries) throw new ZipFormatError(`the archive has ${count} entries, more than the ${maxEntries} allowed`);
  if (offset > b.length) throw new ZipFormatError("the archive is truncated");
  return parseCentralDirectory(b.subarray(offset), count);
}

/**
 * Deflate cannot shrink data more than about 1032:1, and text logs rarely beat 50:1, so an entry (or archive) that
 * claims more than this ratio is a zip bomb. Small entries are exempt: a few kilobytes of blank lines are harmless.
 */
export const MAX_COMPRESSION_RATIO = 400;
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipBudget {
  maxEntries: number;
  /** Sum of the declared unpacked sizes. */
  maxTotalBytes: number;
  maxRatio?: number;
}

function mb(n: number): string {
  return n < 1024 * 1024 ? `${n} bytes` : `${Math.round(n / 1024 / 1024)} MB`;
}

/** Why an entry's declared sizes make it a likely zip bomb, if they do. */
export function bombRatioProblem(e: Pick<ZipEntry, "size" | "compressedSize">, maxRatio = MAX_COMPRESSION_RATIO): string | undefined {
  if (e.size <= RATIO_FLOOR_BYTES) return undefined;
  const ratio = e.size / Math.max(1, e.compressedSize);
  return ratio > maxRatio
    ? `it claims to unpack ${mb(e.compressedSize)} into ${mb(e.size)} (ratio ${Math.round(ratio)}:1, more than ${maxRatio}:1): a zip bomb`
    : undefined;
}

/**
 * Checks a whole archive against a budget from its central directory alone, before anything is inflated: entry count,
 * total declared size, and the compression ratio of each entry and of the whole. Returns the reason to refuse, if any.
 */
export function zipBudgetProblem(entries: readonly ZipEntry[], budget: ZipBudget): string | undefined {
  if (entries.length > budget.maxEntries) return `the archive has ${entries.length} entries, more than the ${budget.maxEntries} allowed`;
  let total = 0;
  let packed = 0;
  for (const e of entries) {
    total += e.size;
    packed += e.compressedSize;
    const bomb = bombRatioProblem(e, budget.maxRatio);
    if (bomb) return `entry ${JSON.stringify(e.name.length > 120 ? `${e.name.slice(0, 120)}…` : e.name)}: ${bomb}`;
  }
  if (total > budget.maxTotalBytes) return `the archive unpacks to ${mb(total)}, more than the ${mb(budget.maxTotalBytes)} allowed`;
  const whole = bombRatioProblem({ size: total, compressedSize: packed }, budget.maxRatio);
  return whole ? `the archive as a whole: ${whole}` : undefined;
}

/** Why an entry name must not be used (absolute, `..`, backslashes, control characters, undecodable), if it must not. */
export function unsafeEntryName(name: string): string | undefined {
  if (!name) return "empty name";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "absolute path";
  if (name.includes("\\")) return "backslash in name";
  if (name.split("/").includes("..")) return "'..' in path";
  if (/[\u0000-\u001f\u007f\ufffd]/.test(name)) return "control or undecodable characters in name";
  return undefined;
}

/** Where an entry's data starts, from its local header (whose name and extra lengths may differ from the central one). */
export function localDataOffset(localHeader: Uint8Array, e: ZipEntry): number {
  if (u32(localHeader, 0) !== LOCAL) throw new ZipFormatError("its local header is missing: the archive is truncated or damaged");
  return e.localOffset + 30 + u16(localHeader, 26) + u16(localHeader, 28);
}

/** The entry's content (stored or deflated), checked against its size and CRC; refused beyond `maxSize` bytes. */
export function readZipEntry(b: Uint8Array, e: ZipEntry, maxSize: number): Uint8Array {
  if (e.size > maxSize) throw new ZipFormatError(`it unpacks to ${e.size} bytes, more than the ${maxSize} allowed`);
  const bomb = bombRatioProblem(e);
  if (bomb) throw new ZipFormatError(bomb);
  if (e.localOffset + 30 > b.length) throw new ZipFormatError("its local header is missing: the archive is truncated or damaged");
  const start = localDataOffset(b.subarray(e.localOffset, e.localOffset + 30), e);
  if (start + e.compressedSize > b.length) throw new ZipFormatError("its data is cut off: the archive is truncated");
  return unpackEntryData(b.subarray(start, start + e.compressedSize), e);
}

/** An entry that inflates to more than it declares: a zip bomb lying about its size. */
export class ZipEntryOverflowError extends ZipFormatError {}

/**
 * An entry's stored or deflated bytes, unpacked, checked against its declared size and CRC. Inflating stops the moment
 * the output passes the declared size (ZipEntryOverflowError), so a lying entry never costs more memory than it says.
 */
export function unpackEntryData(raw: Uint8Array, e: ZipEntry): Uint8Array {
  let data = raw;
  if (e.method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
        throw new ZipEntryOverflowError(`unpacks to more than the ${e.size} bytes it declares: a zip bomb`);
      throw new ZipFormatError(`cannot inflate it (${err instanceof Error ? err.message : String(err)})`);
    }
  } else if (e.method !== 0) throw new ZipFormatError(`compression method ${e.method} is not supported (only stored and deflate)`);
  if (data.length !== e.size || crc32(data) !== e.crc) throw new ZipFormatError(DAMAGED);
  return data;
}

export const DAMAGED = "its content does not match its size or checksum: the archive is damaged";
