// Exports for the UI and the API run as background jobs (lib/jobs): the export row records progress while a worker
// (this process, or `npm run worker` on any machine) writes the files and puts them into the app's file storage
// (lib/storage: a directory or S3-compatible object storage); the browser polls the export and downloads the file
// (and its card) when ready, from whichever replica answers.
import path from "node:path";
import { authorize, type ServiceContext } from "../context.ts";
import {
  findExportJob,
  insertExportJob,
  listExportJobs,
  updateExportJob,
  type ExportJobView,
} from "../../db/repositories/datasets/export-jobs.ts";
import { anyJobUnfinished, findJobs } from "../../db/repositories/jobs.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { jobRunner } from "../../jobs/index.ts";
import { fileStorage, type StoredFile } from "../../storage/index.ts";
import { openExport, type ExportInput } from "./export-dataset.ts";
import { EXPORT_JOB } from "./export-job-run.ts";
import { exportPrefix, sweepExports } from "./export-retention.ts";
import { requireDataset } from "./manage-datasets.ts";
import { DATASET_INFO_FILE, provenanceFile, SIDECARS } from "../../exporters/registry.ts";
import type { ExportFormat } from "../../domain/curation/types.ts";

export type ExportJob = Omit<ExportJobView, "filePath"> & {
  ready: boolean;
  filename: string | null;
  sidecars: string[];
  /** While running: "queued" until a worker takes it, then "writing" (null once finished). */
  phase: "queued" | "writing" | null;
  /** Runs started so far (0 while it waits for its first worker; more than 1 after a failure or a stopped worker). */
  attempts: number;
};

/** `reterm export --clean`: the sweep, by hand. */
export async function cleanExports(ctx: ServiceContext): Promise<number> {
  authorize(ctx, "dataset:export");
  return sweepExports(ctx.db);
}

/** Whether an export of this dataset is queued or being written (deleting the dataset waits for it). */
export async function exportRunningFor(db: Db, jobs: { jobId: string | null }[]): Promise<boolean> {
  return anyJobUnfinished(
    db,
    jobs.flatMap((j) => (j.jobId ? [j.jobId] : [])),
  );
}

/** Remove the stored files of a deleted dataset's jobs. */
export async function removeExportFolders(jobs: { id: string }[]): Promise<void> {
  for (const j of jobs) await fileStorage().removePrefix(exportPrefix(j.id));
}

async function toPublic(db: Db, list: ExportJobView[]): Promise<ExportJob[]> {
  const jobs = new Map(
    (
      await findJobs(
        db,
        list.flatMap((j) => (j.status === "running" && j.jobId ? [j.jobId] : [])),
      )
    ).map((j) => [j.id, j]),
  );
  return list.map((j) => {
    const { filePath, ...rest } = j;
    const job = j.jobId ? jobs.get(j.jobId) : undefined;
    return {
      ...rest,
      ready: j.status === "succeeded" && !!filePath,
      filename: filePath ? path.basename(filePath) : null,
      sidecars: SIDECARS[j.format as ExportFormat] ?? [],
      phase: j.status !== "running" ? null : job?.state === "queued" ? "queued" : "writing",
      attempts: job?.attempts ?? 0,
    };
  });
}

/** Validate, audit and queue an export; returns at once. Leakage and bad input fail here, synchronously. */
export async function startExportJob(ctx: ServiceContext, input: ExportInput): Promise<ExportJob> {
  const opened = await openExport(ctx, input);
  await opened.close(); // checked and audited here; the worker opens it again to write
  await sweepExports(ctx.db);
  const row = await insertExportJob(ctx.db, {
    datasetId: opened.dataset.id,
    datasetVersionId: opened.version.id,
    format: opened.format,
    rowsTotal: opened.total,
    override: input.override ? JSON.stringify(input.override) : null,
    createdById: ctx.actor.id,
  });
  const version = opened.version.frozenAt ? `v${opened.version.version}` : "draft";
  const job = await jobRunner(ctx.db).enqueue(
    EXPORT_JOB,
    { exportId: row.id, input },
    { title: `${opened.format} export of ${opened.dataset.name} ${version}`, createdById: ctx.actor.id, progressTotal: opened.total },
  );
  await updateExportJob(ctx.db, row.id, { jobId: job.id });
  return (await toPublic(ctx.db, [{ ...row, jobId: job.id }]))[0]!;
}

export async function getExportJob(ctx: ServiceContext, id: string): Promise<ExportJob> {
  authorize(ctx, "dataset:export");
  const j = await findExportJob(ctx.db, id);
  if (!j) throw new AppError("NOT_FOUND", "export not found");
  if (j.status === "running" && !j.jobId) {
    // Started by a release that wrote exports inside the web process: nobody is writing this file any more.
    const error = "the server stopped during this export; start it again";
    await updateExportJob(ctx.db, j.id, { status: "failed", error, finished: true });
    return (await toPublic(ctx.db, [{ ...j, status: "failed", error }]))[0]!;
  }
  return (await toPublic(ctx.db, [j]))[0]!;
}

export { sweepExports };

export async function listDatasetExports(ctx: ServiceContext, name: string): Promise<ExportJob[]> {
  authorize(ctx, "dataset:export");
  const d = await requireDataset(ctx, name);
  await sweepExports(ctx.db);
  return toPublic(ctx.db, await listExportJobs(ctx.db, d.id));
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
  // The files of the run that completed sit together under "<export id>/<run id>/".
  const folder = `${path.posix.dirname(j.filePath)}/`;
  if (!folder.startsWith(exportPrefix(j.id))) throw new AppError("NOT_FOUND", "the export file is gone; export again");
  const [stored, filename] =
    which === "data"
      ? [data, data]
      : which === "card"
        ? ["README.md", `${data.replace(/\.[^.]+$/, "")}.README.md`]
        : which === "provenance"
          ? [provenanceFile(data), provenanceFile(data)]
          : [DATASET_INFO_FILE, DATASET_INFO_FILE];
  const file = await fileStorage().open(`${folder}${stored}`);
  if (!file) throw new AppError("NOT_FOUND", "the export file is gone (the export storage was cleaned); export again");
  return { ...file, filename };
}
