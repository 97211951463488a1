import type { Db } from "../client.ts";
import { rebuildFailureModeRollups } from "./failure-modes/rollup.ts";
import { refreshFacetCellBounds } from "./browse/facet-cells.ts";

export type ImportOrigin = "cli" | "upload" | "api" | "seed";

export async function createImportJob(
  db: Db,
  origin: ImportOrigin,
  userId: string | null,
  owner?: { pid: number; host: string },
): Promise<string> {
  const job = await db.importJob.create({
    data: { origin, status: "running", userId, pid: owner?.pid ?? null, host: owner?.host ?? null },
    select: { id: true },
  });
  return job.id;
}

export async function finishImportJob(
  db: Db,
  id: string,
  r: { status: "succeeded" | "partial" | "failed"; imported: number; skipped: number; failed: number; report: unknown },
): Promise<void> {
  await db.importJob.update({
    where: { id },
    data: {
      status: r.status,
      imported: r.imported,
      skipped: r.skipped,
      failed: r.failed,
      report: JSON.stringify(r.report),
      finishedAt: new Date(),
    },
  });
}

/** Strict-mode rollback: remove everything an import wrote (steps, errors and recordings cascade). */
export async function deleteImportedTrajectories(db: Db, jobId: string): Promise<number> {
  const runs = await db.trajectory.findMany({ where: { importJobId: jobId }, distinct: ["runId"], select: { runId: true } });
  const r = await db.trajectory.deleteMany({ where: { importJobId: jobId } });
  await refreshFacetCellBounds(db);
  // Their signatures went with them (cascade); the failure-mode rollup is recounted for the runs they were in.
  await rebuildFailureModeRollups(
    db,
    runs.map((t) => t.runId),
  );
  return r.count;
}

export interface RunningJob {
  id: string;
  pid: number | null;
  host: string | null;
  startedAt: Date;
}

/** Jobs still marked running: in progress elsewhere, or killed before they could finish. */
export async function findRunningJobs(db: Db): Promise<RunningJob[]> {
  return db.importJob.findMany({
    where: { status: "running" },
    select: { id: true, pid: true, host: true, startedAt: true },
    orderBy: { startedAt: "asc" },
  });
}

/**
 * Close interrupted jobs whose work a later import has completed: they keep the trajectories they wrote (counted
 * from the database) and point at the job that finished them.
 */
export async function markJobsResumed(db: Db, ids: readonly string[], resumedBy: string): Promise<void> {
  for (const id of ids) {
    const imported = await db.trajectory.count({ where: { importJobId: id } });
    await db.importJob.update({
      where: { id },
      data: {
        status: "resumed",
        imported,
        report: JSON.stringify({ resumedBy, note: "interrupted; its remaining work was completed by a later import" }),
        finishedAt: new Date(),
      },
    });
  }
}

export interface ImportJobRow {
  id: string;
  origin: string;
  status: string;
  pid: number | null;
  host: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  imported: number;
  skipped: number;
  failed: number;
}

/** The most recent import jobs, newest first. */
export async function findRecentJobs(db: Db, limit: number): Promise<ImportJobRow[]> {
  return db.importJob.findMany({
    orderBy: { startedAt: "desc" },
    take: limit,
    select: {
      id: true,
      origin: true,
      status: true,
      pid: true,
      host: true,
      startedAt: true,
      finishedAt: true,
      imported: true,
      skipped: true,
      failed: true,
    },
  });
}
