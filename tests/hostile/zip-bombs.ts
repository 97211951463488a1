// Hostile zip archives, built in memory and deterministically: bombs that declare their size and bombs that lie.
import { zipSync } from "fflate";

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Rewrite the declared unpacked size of every entry (central directory and local headers). */
function patchSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (let p = 0; p + 4 <= out.length; p++) {
    const sig = view.getUint32(p, true);
    if (sig === CENTRAL) view.setUint32(p + 24, size >>> 0, true);
    else if (sig === LOCAL) view.setUint32(p + 22, size >>> 0, true);
  }
  return out;
}

/** A small archive whose central directory claims `declared` bytes (a few KB of real content). */
export function declaredBomb(declared: number): Uint8Array {
  return patchSizes(zipSync({ "trajectories.jsonl": new Uint8Array(64 * 1024) }), Math.min(declared, 0xfffffffe));
}

/** An archive that really inflates to `actual` bytes of zeros but declares only `declared`. */
export function lyingBomb(actual: number, declared: number): Uint8Array {
  return patchSizes(zipSync({ "trajectories.jsonl": new Uint8Array(actual) }), declared);
}

/** `count` tiny entries (the 2 MB / 20,000-entry archive that took 102 s). */
export function manyEntries(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) files[`t/${i}.jsonl`] = new Uint8Array(0);
  return zipSync(files);
}
