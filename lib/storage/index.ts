// The app's file storage, chosen by RETERM_STORAGE: `s3://bucket/prefix` for S3-compatible object storage, a
// directory path for a local (or mounted) folder; unset: RETERM_EXPORT_DIR, else reterm-exports in the OS temp folder.
import os from "node:os";
import path from "node:path";
import { getEnv } from "../env.ts";
import { LocalStorage } from "./local.ts";
import { parseS3Url, S3Storage } from "./s3.ts";
import type { FileStorage } from "./types.ts";

export type { FileStorage, StoredFile } from "./types.ts";

let cached: { setting: string; storage: FileStorage } | undefined;

export function fileStorage(): FileStorage {
  const env = getEnv();
  const setting = env.RETERM_STORAGE ?? env.RETERM_EXPORT_DIR ?? path.join(os.tmpdir(), "reterm-exports");
  if (cached?.setting !== setting)
    cached = {
      setting,
      storage: setting.startsWith("s3://") ? new S3Storage(parseS3Url(setting)) : new LocalStorage(path.resolve(setting)),
    };
  return cached.storage;
}
