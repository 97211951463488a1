// Background exports started from the UI: status, progress and where the finished file is.
import type { Db } from "../../client.ts";

export interface ExportJobView {
  id: string;
  datasetId: string;
  datasetVersionId: string;
  format: string;
  status: "running" | "succeeded" | "failed";
  rowsWritten: number;
  rowsTotal: number;
  bytesWritten: number;
  filePath: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

type Row = Awaited<ReturnType<Db["exportJob"]["findUniqueOrThrow"]>>;
const toView = (j: Row): ExportJobView => ({
  id: j.id, datasetId: j.datasetId, datasetVersionId: j.datasetVersionId, format: j.format, status: j.status as ExportJobView["status"],
  rowsWritten: j.rowsWritten, rowsTotal: j.rowsTotal, bytesWritten: j.bytesWritten, filePath: j.filePath, error: j.error,
  createdAt: j.createdAt.toISOString(), finishedAt: j.finishedAt?.toISOString() ?? null,
});

export async function insertExportJob(db: Db, j: { datasetId: string; datasetVersionId: string; format: string; rowsTotal: number; override: string | null; createdById: string }): Promise<ExportJobView> {
  return toView(await db.exportJob.create({ data: { ...j, status: "running" } }));
}

export async function updateExportJob(db: Db, id: string, p: Partial<Pick<ExportJobView, "status" | "rowsWritten" | "bytesWritten" | "filePath" | "error">> & { finished?: boolean }): Promise<void> {
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
