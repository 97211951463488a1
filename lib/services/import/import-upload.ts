// Use case: an uploaded file (or a zip of a job folder) is spooled to a private temp folder under its original
// name, unpacked when it is a zip (budgeted from its central directory first, lib/importers/zip-file.ts), and imported
// like files from disk. Size limits are enforced while streaming.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable, Transform } from "node:stream";
import { unpackZipFile, ZipBudgetError, ZipFormatError } from "../../importers/zip-file.ts";
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { importFiles, type ImportFilesOptions, type ImportFilesResult } from "./import-files.ts";
import { AppError } from "../../errors.ts";

export const uploadNameSchema = z
  .string()
  .trim()
  .min(1, "file name is required")
  .max(255)
  .refine((n) => !/[/\\]/.test(n) && n !== "." && n !== "..", "file name must not contain a path")
  .refine((n) => !/[\u0000-\u001f]/.test(n), "file name must not contain control characters");

export interface UploadLimits {
  maxBytes: number;
  /** A zip may not unpack to more than this (zip bombs; checked from its central directory before inflating). */
  maxUnpackedBytes: number;
  maxZipEntries: number;
}

async function spool(body: ReadableStream<Uint8Array>, file: string, maxBytes: number): Promise<number> {
  let total = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      total += chunk.length;
      if (total > maxBytes)
        cb(
          new AppError(
            "PAYLOAD_TOO_LARGE",
            `upload is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit (RETERM_MAX_UPLOAD_MB)`,
          ),
        );
      else cb(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(body as never), limiter, fs.createWriteStream(file));
  return total;
}

async function unzipTo(zipFile: string, dir: string, limits: UploadLimits): Promise<void> {
  try {
    await unpackZipFile(zipFile, dir, { maxEntries: limits.maxZipEntries, maxTotalBytes: limits.maxUnpackedBytes });
  } catch (e) {
    if (e instanceof ZipBudgetError)
      throw new AppError("PAYLOAD_TOO_LARGE", `${path.basename(zipFile)}: ${e.message}; refusing the archive`);
    if (e instanceof ZipFormatError) throw new AppError("UNPROCESSABLE", `${path.basename(zipFile)}: ${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    // Names that collide on disk (a file and a folder of the same name, names too long for the file system).
    if (code && /^E[A-Z]+$/.test(code)) throw new AppError("UNPROCESSABLE", `${path.basename(zipFile)}: cannot unpack an entry (${code})`);
    throw e;
  }
}

/** An upload spooled (and unpacked) on disk, ready to import; `discard()` removes it. */
export interface ReceivedUpload {
  input: string;
  discard(): void;
}

/**
 * Spool the body to a private temp folder (size-capped as it streams) and unpack a zip within its budget. Everything
 * that can refuse the upload for its size or shape happens here, before any response is sent, so the caller can answer
 * with a real status (413, 422) instead of an error line inside a 200 stream.
 */
export async function receiveUpload(
  ctx: ServiceContext,
  upload: { name: string; body: ReadableStream<Uint8Array> },
  limits: UploadLimits,
): Promise<ReceivedUpload> {
  authorize(ctx, "trajectory:import");
  const name = uploadNameSchema.parse(upload.name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-upload-"));
  const discard = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const file = path.join(dir, name);
    await spool(upload.body, file, limits.maxBytes);
    let input = file;
    if (name.toLowerCase().endsWith(".zip")) {
      input = path.join(dir, name.replace(/\.zip$/i, ""));
      fs.mkdirSync(input);
      await unzipTo(file, input, limits);
      fs.rmSync(file);
    }
    return { input, discard };
  } catch (e) {
    discard();
    throw e;
  }
}

/** Import an upload received by receiveUpload(), then discard it. */
export async function importReceived(
  ctx: ServiceContext,
  received: ReceivedUpload,
  opts: Pick<ImportFilesOptions, "runName" | "format" | "strict" | "dryRun" | "onProgress">,
): Promise<ImportFilesResult> {
  try {
    return await importFiles(ctx, [received.input], { origin: "upload", ...opts });
  } finally {
    received.discard();
  }
}

export async function importUpload(
  ctx: ServiceContext,
  upload: { name: string; body: ReadableStream<Uint8Array> },
  limits: UploadLimits,
  opts: Pick<ImportFilesOptions, "runName" | "format" | "strict" | "dryRun" | "onProgress">,
): Promise<ImportFilesResult> {
  return importReceived(ctx, await receiveUpload(ctx, upload, limits), opts);
}
