// Background exports for the UI: the job row records progress while the server writes the files into a scratch
// folder on its own disk, then moves them to the app's file storage (lib/storage: a directory or S3-compatible object
// storage) under "<job id>/"; the browser polls the job and downloads the file (and its card) when ready, from
// whichever replica answers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { authorize, type ServiceContext } from "../context.ts";
import {
  findExpirableExportJobs,
  findExportJob,
  insertExportJob,
  listExportJobs,
  markExportExpired,
  updateExportJob,
  type ExportJobView,
} from "../../db/repositories/datasets/export-jobs.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { getEnv } from "../../env.ts";
import { fileStorage, type StoredFile } from "../../storage/index.ts";
import { openExport, writeExportFiles, type ExportInput } from "./export-dataset.ts";
import { requireDataset } from "./manage-datasets.ts";
import { DATASET_INFO_FILE, provenanceFile, SIDECARS } from "../../exporters/registry.ts";
import type { ExportFormat } from "../../domain/curation/types.ts";

export type ExportJob = Omit<ExportJobView, "filePath"> & { ready: boolean; filename: string | null; sidecars: string[] };

/** Where a job's files are written before they go to storage (this machine's temp folder). */
const scratchFolder = (id: string) => path.join(os.tmpdir(), "reterm-export-work", id);

/** Jobs this server process is writing. A job "running" in the database but not here died with an earlier process. */
const active = new Set<string>();
const PROGRESS_EVERY = 2_000;
const DAY_MS = 86_400_000;

/** A job's storage prefix. Always derived from the job id (never from the stored path), so cleanup cannot reach outside. */
const jobPrefix = (id: string) => `${id}/`;

/** Delete the files of a job and mark it expired with the reason shown in the UI. */
async function expire(db: Db, id: string, why: string): Promise<void> {
  if (await markExportExpired(db, id, why)) await fileStorage().removePrefix(jobPrefix(id));
}

/**
 * Delete finished export files past the retention period (RETERM_EXPORT_RETENTION_DAYS, default 7) and files that a
 * newer export of the same version and format has replaced. Runs when exports start, finish and are listed, so no
 * scheduler is needed; `reterm export --clean` runs it by hand. Returns how many files were deleted.
 */
export async function sweepExports(db: Db, now = new Date()): Promise<number> {
  const days = getEnv().RETERM_EXPORT_RETENTION_DAYS;
  const due = await findExpirableExportJobs(db, new Date(now.getTime() - days * DAY_MS));
  for (const j of due)
    await expire(
      db,
      j.id,
      j.reason === "replaced"
        ? "replaced by a newer export of the same version and format"
        : `deleted after ${days} day${days === 1 ? "" : "s"} (RETERM_EXPORT_RETENTION_DAYS)`,
    );
  return due.length;
}

/** `reterm export --clean`: the sweep, by hand. */
export async function cleanExports(ctx: ServiceContext): Promise<number> {
  authorize(ctx, "dataset:export");
  return sweepExports(ctx.db);
}

/** Whether an export of this dataset is being written by this process (deleting the dataset waits for it). */
export const exportRunningFor = (jobs: { id: string }[]) => jobs.some((j) => active.has(j.id));

/** Remove the stored files of a deleted dataset's jobs. */
export async function removeExportFolders(jobs: { id: string }[]): Promise<void> {
  for (const j of jobs) await fileStorage().removePrefix(jobPrefix(j.id));
}
const toPublic = (j: ExportJobView): ExportJob => {
  const { filePath, ...rest } = j;
  return {
    ...rest,
    ready: j.status === "succeeded" && !!filePath,
    filename: filePath ? path.basename(filePath) : null,
    sidecars: SIDECARS[j.format as ExportFormat] ?? [],
  };
};

/** Validate and start an export; returns at once with the running job. Leakage and bad input fail here, synchronously. */
export async function startExportJob(ctx: ServiceContext, input: ExportInput): Promise<ExportJob> {
  const opened = await openExport(ctx, input);
  let job: ExportJobView;
  let folder: string;
  try {
    await sweepExports(ctx.db);
    job = await insertExportJob(ctx.db, {
      datasetId: opened.dataset.id,
      datasetVersionId: opened.version.id,
      format: opened.format,
      rowsTotal: opened.total,
      override: input.override ? JSON.stringify(input.override) : null,
      createdById: ctx.actor.id,
    });
    folder = scratchFolder(job.id);
    fs.mkdirSync(folder, { recursive: true });
  } catch (e) {
    await opened.close(); // the stored export's reader, opened for a write that never starts
    throw e;
  }
  const out = path.join(folder, opened.filename);
  active.add(job.id);
  void (async () => {
    let last = 0;
    try {
      const { bytes } = await writeExportFiles(opened, out, (done) => {
        if (done - last < PROGRESS_EVERY) return;
        last = done;
        void updateExportJob(ctx.db, job.id, { rowsWritten: done }).catch(() => undefined);
      });
      // Every file (data, card, sidecars) is stored before the job says succeeded: a download never finds half.
      for (const name of await fs.promises.readdir(folder))
        await fileStorage().putFile(`${jobPrefix(job.id)}${name}`, path.join(folder, name));
      await updateExportJob(ctx.db, job.id, {
        status: "succeeded",
        rowsWritten: opened.total,
        bytesWritten: bytes,
        filePath: `${jobPrefix(job.id)}${opened.filename}`,
        finished: true,
      });
      await sweepExports(ctx.db); // this export replaces older ones of the same version and format
    } catch (e) {
      await fileStorage()
        .removePrefix(jobPrefix(job.id))
        .catch(() => undefined);
      await updateExportJob(ctx.db, job.id, { status: "failed", error: (e as Error).message, finished: true }).catch(() => undefined);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      active.delete(job.id);
    }
  })();
  return toPublic(job);
}

export async function getExportJob(ctx: ServiceContext, id: string): Promise<ExportJob> {
  authorize(ctx, "dataset:export");
  const j = await findExportJob(ctx.db, id);
  if (!j) throw new AppError("NOT_FOUND", "export not found");
  if (j.status === "running" && !active.has(j.id)) {
    // Single-process server: nobody is writing this file any more (the server restarted mid-export).
    const error = "the server stopped during this export; start it again";
    await updateExportJob(ctx.db, j.id, { status: "failed", error, finished: true });
    return toPublic({ ...j, status: "failed", error });
  }
  return toPublic(j);
}

export async function listDatasetExports(ctx: ServiceContext, name: string): Promise<ExportJob[]> {
  authorize(ctx, "dataset:export");
  const d = await requireDataset(ctx, name);
  await sweepExports(ctx.db);
  return (await listExportJobs(ctx.db, d.id)).map(toPublic);
}

export const EXPORT_FILES = ["data", "card", "provenance", "dataset-info"] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

/** The finished file of a job (data, its card, or a sidecar its format writes) for download, streamed from storage. */
export async function openExportFile(ctx: ServiceContext, id: string, which: ExportFile): Promise<StoredFile & { filename: string }> {
  authorize(ctx, "dataset:export");
  await sweepExports(ctx.db);
  const j = await findExportJob(ctx.db, id);
  if (!j) throw new AppError("NOT_FOUND", "export not found");
  if (j.status === "expired") throw new AppError("NOT_FOUND", `the export file expired: ${j.error}; export again`);
  if (j.status !== "succeeded" || !j.filePath)
    throw new AppError("CONFLICT", j.status === "failed" ? `the export failed: ${j.error}` : "the export is not finished yet");
  if ((which === "provenance" || which === "dataset-info") && !(SIDECARS[j.format as ExportFormat] ?? []).includes(which)) {
    throw new AppError("NOT_FOUND", `a ${j.format} export has no ${which} file`);
  }
  const data = path.basename(j.filePath);
  const [stored, filename] =
    which === "data"
      ? [data, data]
      : which === "card"
        ? ["README.md", `${data.replace(/\.[^.]+$/, "")}.README.md`]
        : which === "provenance"
          ? [provenanceFile(data), provenanceFile(data)]
          : [DATASET_INFO_FILE, DATASET_INFO_FILE];
  const file = await fileStorage().open(`${jobPrefix(j.id)}${stored}`);
  if (!file) throw new AppError("NOT_FOUND", "the export file is gone (the export storage was cleaned); export again");
  return { ...file, filename };
}
