// Background exports started from the UI: status, progress and where the finished file is.
import type { Db } from "../../client.ts";

export interface ExportJobView {
  id: string;
  datasetId: string;
  datasetVersionId: string;
  format: string;
  /** expired: the file was deleted (retention, a newer export, or the dataset's deletion); `error` says why. */
  status: "running" | "succeeded" | "failed" | "expired";
  rowsWritten: number;
  rowsTotal: number;
  bytesWritten: number;
  filePath: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The background job writing it (null for exports started before exports were jobs). */
  jobId: string | null;
}

type Row = Awaited<ReturnType<Db["exportJob"]["findUniqueOrThrow"]>>;
const toView = (j: Row): ExportJobView => ({
  id: j.id,
  datasetId: j.datasetId,
  datasetVersionId: j.datasetVersionId,
  format: j.format,
  status: j.status as ExportJobView["status"],
  rowsWritten: j.rowsWritten,
  rowsTotal: j.rowsTotal,
  bytesWritten: j.bytesWritten,
  filePath: j.filePath,
  error: j.error,
  createdAt: j.createdAt.toISOString(),
  finishedAt: j.finishedAt?.toISOString() ?? null,
  jobId: j.jobId,
});

export async function insertExportJob(
  db: Db,
  j: { datasetId: string; datasetVersionId: string; format: string; rowsTotal: number; override: string | null; createdById: string },
): Promise<ExportJobView> {
  return toView(await db.exportJob.create({ data: { ...j, status: "running" } }));
}

export async function updateExportJob(
  db: Db,
  id: string,
  p: Partial<Pick<ExportJobView, "status" | "rowsWritten" | "bytesWritten" | "filePath" | "error" | "jobId">> & { finished?: boolean },
): Promise<void> {
  const { finished, ...data } = p;
  await db.exportJob.update({ where: { id }, data: { ...data, ...(finished ? { finishedAt: new Date() } : {}) } });
}

export async function findExportJob(db: Db, id: string): Promise<ExportJobView | null> {
  const j = await db.exportJob.findUnique({ where: { id } });
  return j ? toView(j) : null;
}

export async function listExportJobs(db: Db, datasetId: string, take = 10): Promise<ExportJobView[]> {
  return (await db.exportJob.findMany({ where: { datasetId }, orderBy: { createdAt: "desc" }, take })).map(toView);
}

/** Finished jobs that still have a file and either finished before `before` or have a newer finished export of the
 * same version and format (oldest first). */
export async function findExpirableExportJobs(
  db: Db,
  before: Date,
): Promise<{ id: string; filePath: string; reason: "retention" | "replaced" }[]> {
  const live = await db.exportJob.findMany({
    where: { status: "succeeded", filePath: { not: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: { id: true, filePath: true, finishedAt: true, datasetVersionId: true, format: true },
  });
  const newest = new Set<string>();
  const out: { id: string; filePath: string; reason: "retention" | "replaced" }[] = [];
  for (const j of live) {
    const key = `${j.datasetVersionId}\u0000${j.format}`;
    if (newest.has(key)) out.push({ id: j.id, filePath: j.filePath!, reason: "replaced" });
    else if (j.finishedAt && j.finishedAt < before) out.push({ id: j.id, filePath: j.filePath!, reason: "retention" });
    newest.add(key);
  }
  return out.reverse();
}

/** Mark a job's file as deleted, only if it is still a finished job with a file (a concurrent sweep is harmless). */
export async function markExportExpired(db: Db, id: string, why: string): Promise<boolean> {
  return (
    (await db.exportJob.updateMany({ where: { id, status: "succeeded" }, data: { status: "expired", filePath: null, error: why } }))
      .count === 1
  );
}

/** Every job of a dataset with its folder (for deleting the dataset). */
export async function listAllExportJobFiles(
  db: Db,
  datasetId: string,
): Promise<{ id: string; filePath: string | null; jobId: string | null }[]> {
  return db.exportJob.findMany({ where: { datasetId }, select: { id: true, filePath: true, jobId: true } });
}
