// Use case: recent import jobs with their state as a person should read it — a job whose process is gone before it
// finished is "interrupted" (the next import completes it), not "running".
import { authorize, type ServiceContext } from "../context.ts";
import { findRecentJobs } from "../../db/repositories/import-jobs.ts";
import { currentOwner, isInterrupted } from "./interrupted-imports.ts";

export interface ImportJobView {
  id: string;
  origin: string;
  /** running | interrupted | succeeded | partial | failed | resumed */
  status: string;
  startedAt: string;
  finishedAt: string | null;
  imported: number;
  skipped: number;
  failed: number;
}

export async function listImportJobs(ctx: ServiceContext, limit = 20): Promise<ImportJobView[]> {
  authorize(ctx, "trajectory:import");
  const self = currentOwner();
  return (await findRecentJobs(ctx.db, limit)).map((j) => ({
    id: j.id,
    origin: j.origin,
    status: j.status === "running" && isInterrupted(j, self) ? "interrupted" : j.status,
    startedAt: j.startedAt.toISOString(),
    finishedAt: j.finishedAt?.toISOString() ?? null,
    imported: j.imported,
    skipped: j.skipped,
    failed: j.failed,
  }));
}
