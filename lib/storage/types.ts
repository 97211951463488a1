// Where files the app writes for later download live (finished exports today): behind one interface, so every web
// replica serves what any worker wrote. Keys are relative, "/"-separated, made of safe characters only.
import type { Readable } from "node:stream";

export interface StoredFile {
  body: Readable;
  size: number;
}

export interface FileStorage {
  /** "local" (a directory) or "s3" (S3-compatible object storage); for messages and the health check. */
  readonly kind: "local" | "s3";
  /** Store the local file `file` under `key` (streamed; the caller removes `file` afterwards). */
  putFile(key: string, file: string): Promise<void>;
  /** The stored file, or null when there is none under `key`. */
  open(key: string): Promise<StoredFile | null>;
  /** Delete everything under `prefix` (a key ending in "/"). */
  removePrefix(prefix: string): Promise<void>;
  /** Whether files can be stored now (the folder is writable; the bucket exists and answers); throws why not. */
  check(): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/?$/;

/** A key as the drivers accept it: relative, no "." or ".." segment, safe characters. Throws otherwise. */
export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split("/").some((s) => s === "." || s === ".."))
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}
