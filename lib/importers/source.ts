// Turning paths on disk into ImportSources: transparent .gz decompression and a 64 KiB head for sniffing.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { ImportSource } from "./types.ts";

export const HEAD_BYTES = 64 * 1024;

function isGzip(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const b = Buffer.alloc(2);
    return fs.readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

function openFile(file: string): NodeJS.ReadableStream {
  const raw = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  return isGzip(file) ? raw.pipe(zlib.createGunzip()) : raw;
}

async function readHead(file: string): Promise<{ head: string; error?: string }> {
  const chunks: Buffer[] = [];
  let error: string | undefined;
  let n = 0;
  const stream = openFile(file);
  try {
    for await (const c of stream) {
      const b = typeof c === "string" ? Buffer.from(c) : (c as Buffer);
      chunks.push(b);
      n += b.length;
      if (n >= HEAD_BYTES) break;
    }
  } catch (e) {
    // A truncated or corrupt .gz still gets a head of what could be read; the importer reports the error, or, when
    // nothing recognisable could be read, the walk says why.
    error = `corrupt or truncated gzip data (${(e as Error).message})`;
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
  return { head: Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString("utf8"), error };
}

/** A file source; `displayPath` defaults to the path relative to the current directory. */
export async function fileSource(file: string, displayPath?: string): Promise<Extract<ImportSource, { kind: "file" }>> {
  const abs = path.resolve(file);
  const { head, error } = await readHead(abs);
  return {
    kind: "file",
    path: abs,
    displayPath: displayPath ?? path.relative(process.cwd(), abs),
    head,
    ...(error ? { headError: error } : {}),
    size: fs.statSync(abs).size,
    open: () => openFile(abs),
  };
}

export function dirSource(dir: string, displayPath?: string): Extract<ImportSource, { kind: "dir" }> {
  const abs = path.resolve(dir);
  return { kind: "dir", path: abs, displayPath: displayPath ?? path.relative(process.cwd(), abs), entries: fs.readdirSync(abs).sort() };
}
