// Export files' retention: finished files past RETERM_EXPORT_RETENTION_DAYS, and files a newer export of the same
// version and format replaced, are deleted from the file storage and their rows say why.
import type { Db } from "../../db/client.ts";
import { findExpirableExportJobs, markExportExpired } from "../../db/repositories/datasets/export-jobs.ts";
import { getEnv } from "../../env.ts";
import { fileStorage } from "../../storage/index.ts";

/** An export's storage prefix. Always derived from the export id (never from a stored path), so cleanup cannot reach outside. */
export const exportPrefix = (id: string) => `${id}/`;

const DAY_MS = 86_400_000;

/** Delete the files of a job and mark it expired with the reason shown in the UI. */
async function expire(db: Db, id: string, why: string): Promise<void> {
  if (await markExportExpired(db, id, why)) await fileStorage().removePrefix(exportPrefix(id));
}

/**
 * Delete finished export files past the retention period (RETERM_EXPORT_RETENTION_DAYS, default 7) and files that a
 * newer export of the same version and format has replaced. Runs as the hourly retention job, and when exports start
 * and are listed; `reterm export --clean` runs it by hand. Returns how many files were deleted.
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
