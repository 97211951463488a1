// Which import jobs were killed: a job marked running whose process on this host is gone. A re-run completes their
// remaining phases (see ../import/settle-import.ts); until then they show as interrupted.
import os from "node:os";
import { authorize, type ServiceContext } from "../context.ts";
import { findRunningJobs, type RunningJob } from "../../db/repositories/import-jobs.ts";

export interface JobOwner {
  pid: number;
  host: string;
}

/** The process that runs an import, stored with its job so that another process can tell whether it is still alive. */
export function currentOwner(): JobOwner {
  return { pid: process.pid, host: os.hostname() };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a running job's process is gone. Only jobs started on this host can be checked; a job of another host
 * (a shared PostgreSQL) is left to that host, and jobs from before owners were recorded are left alone.
 */
export function isInterrupted(job: Pick<RunningJob, "pid" | "host">, self: JobOwner = currentOwner()): boolean {
  if (job.pid === null || job.host === null || job.host !== self.host) return false;
  if (job.pid === self.pid) return false;
  return !processAlive(job.pid);
}

/** Ids of the import jobs that were killed before they finished, oldest first. */
export async function findInterruptedImports(ctx: ServiceContext): Promise<string[]> {
  authorize(ctx, "trajectory:import");
  const self = currentOwner();
  return (await findRunningJobs(ctx.db)).filter((j) => isInterrupted(j, self)).map((j) => j.id);
}
