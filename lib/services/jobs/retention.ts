// The retention sweep as a job: finished export files past RETERM_EXPORT_RETENTION_DAYS, or replaced by a newer
// export of the same version and format, are deleted from the file storage. Queued hourly by every worker (a second
// one queued at the same moment finds nothing left to delete).
import type { Db } from "../../db/client.ts";
import { listJobs } from "../../db/repositories/jobs.ts";
import { jobRunner, type JobKind } from "../../jobs/index.ts";
import { sweepExports } from "../curation/export-retention.ts";

export const RETENTION_JOB: JobKind<Record<string, never>> = {
  kind: "retention",
  maxAttempts: 3,
  async run({ db }) {
    const n = await sweepExports(db);
    return { result: `${n} export file${n === 1 ? "" : "s"} deleted` };
  },
};

/** Queue a retention sweep unless one is already queued or running. */
export async function queueRetention(db: Db): Promise<void> {
  const open = await listJobs(db, { states: ["queued", "running"], take: 200 });
  if (open.some((j) => j.kind === RETENTION_JOB.kind)) return;
  await jobRunner(db).enqueue(RETENTION_JOB, {}, { title: "retention sweep of export files", createdById: null });
}
