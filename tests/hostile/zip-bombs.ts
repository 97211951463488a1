// Hostile zip archives, built deterministically with node:zlib (fast, streaming, so a test never holds the bomb's
// unpacked size): bombs that declare their size, bombs that lie about it, and archives with absurd entry counts.
import zlib from "node:zlib";

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD = 0x06054b50;

interface Entry {
  name: string;
  data: Uint8Array; // deflated (method 8) or stored (method 0)
  method: 0 | 8;
  crc: number;
  size: number; // declared unpacked size
}

/** A classic (non-zip64) archive from prepared entries. */
function archive(entries: Entry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(Math.min(e.size, 0xfffffffe), 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(Math.min(e.size, 0xfffffffe), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.data));
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

function stored(name: string, text: string): Entry {
  const data = Buffer.from(text, "utf8");
  return { name, data, method: 0, crc: zlib.crc32(data), size: data.length };
}

/** Zeros deflated in 16 MB pieces: `bytes` of output never exist in memory at once. */
function deflatedZeros(bytes: number): { data: Buffer; crc: number } {
  const piece = Buffer.alloc(16 * 1024 * 1024);
  const out: Buffer[] = [];
  const deflate = zlib.createDeflateRaw({ level: 9 });
  let crc = 0;
  for (let left = bytes; left > 0; left -= piece.length) {
    const chunk = left >= piece.length ? piece : piece.subarray(0, left);
    crc = zlib.crc32(chunk, crc);
    out.push(zlib.deflateRawSync(chunk, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  }
  deflate.close();
  // Sync-flushed pieces concatenate into one valid raw deflate stream; an empty final block ends it.
  out.push(Buffer.from([0x03, 0x00]));
  return { data: Buffer.concat(out), crc };
}

/** A small archive whose central directory claims `declared` bytes (e.g. 2.5 GB) for a tiny real content. */
export function declaredBomb(declared: number): Uint8Array {
  const { data, crc } = deflatedZeros(64 * 1024);
  return archive([{ name: "trajectories.jsonl", data, method: 8, crc, size: declared }]);
}

/** An archive that really inflates to `actual` bytes but declares only `declared` (sizes and ratio look harmless). */
export function lyingBomb(actual: number, declared: number): Uint8Array {
  const { data, crc } = deflatedZeros(actual);
  return archive([{ name: "trajectories.jsonl", data, method: 8, crc, size: declared }]);
}

/** An honest archive of `bytes` zeros (ratio about 1000:1). */
export function ratioBomb(bytes: number): Uint8Array {
  const { data, crc } = deflatedZeros(bytes);
  return archive([{ name: "zeros.jsonl", data, method: 8, crc, size: bytes }]);
}

/** `count` tiny stored entries (the 2 MB / 20,000-entry archive that once took 102 s to import). */
export function manyEntries(count: number): Uint8Array {
  return archive(Array.from({ length: count }, (_, i) => stored(`t/${i}.jsonl`, "")));
}

/** One entry with an absurdly long name. */
export function longNameEntry(length: number): Uint8Array {
  return archive([stored(`${"a".repeat(length)}.jsonl`, "{}\n")]);
}
