// Rebuilding what is derived from the signatures, for the paths that remove signatures rather than add them: the
// FailureModeRollup (after a strict import's rollback or a reindex) and the fork points' failure mode (after a
// reindex). Imports keep both in step themselves (lib/db/bulk/mode-rollup.ts, fork-links.ts).
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { ROLLUP_COLUMN_LIST, rollupDaySql } from "../../bulk/mode-rollup.ts";
import { REFRESH_FORK_POINTS_SQL } from "../../bulk/fork-links.ts";
import { dialectOf } from "../../dialect.ts";

const sql = Prisma.sql;

/** Replace both rollups' rows of these runs (all runs when omitted) with what their signatures add up to. */
export async function rebuildFailureModeRollups(db: Db, runIds?: readonly string[]): Promise<void> {
  if (runIds && !runIds.length) return;
  const day = Prisma.raw(rollupDaySql(dialectOf(db), "fs"));
  const only = (alias: string) =>
    runIds ? sql`WHERE ${Prisma.raw(`"${alias}"`)}."runId" IN (${Prisma.join(runIds.map((r) => sql`${r}`))})` : Prisma.empty;
  await db.$transaction([
    db.$executeRaw`DELETE FROM "FailureModeRollup" ${only("FailureModeRollup")}`,
    db.$executeRaw`INSERT INTO "FailureModeRollup" (${Prisma.raw(ROLLUP_COLUMN_LIST)})
      SELECT fs."templateHash", fs."runId", fs."taskId", ${day}, MIN(fs."template"), MIN(fs."kind"), MIN(fs."category"),
        COUNT(DISTINCT fs."trajectoryId"), COUNT(DISTINCT CASE WHEN fs."outcome" = 'failed' THEN fs."trajectoryId" END), COUNT(*),
        MIN(fs."importedAt"), MAX(fs."importedAt")
      FROM "FailureSignature" fs ${only("fs")} GROUP BY fs."templateHash", fs."runId", fs."taskId", ${day}`,
    db.$executeRaw`DELETE FROM "FailureValueRollup" ${only("FailureValueRollup")}`,
    db.$executeRaw`INSERT INTO "FailureValueRollup" ("templateHash", "value", "runId", "taskId", "day", "steps")
      SELECT fs."templateHash", fs."value", fs."runId", fs."taskId", ${day}, COUNT(*)
      FROM "FailureSignature" fs WHERE fs."value" IS NOT NULL ${runIds ? sql`AND fs."runId" IN (${Prisma.join(runIds.map((r) => sql`${r}`))})` : Prisma.empty}
      GROUP BY fs."templateHash", fs."value", fs."runId", fs."taskId", ${day}`,
  ]);
}

/** Every fork point's figures and failure mode recomputed (after a reindex replaced the signatures they point at). */
export async function refreshAllForkPoints(db: Db): Promise<void> {
  await db.$executeRawUnsafe(REFRESH_FORK_POINTS_SQL.replace(`WHERE "trajectoryId" = ?`, ""));
}
