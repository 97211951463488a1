// Rebuilding FailureModeRollup from the signatures, for the paths that remove signatures rather than add them: a
// strict import's rollback and a reindex. Imports keep it in step themselves (lib/db/bulk/mode-rollup.ts).
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { ROLLUP_COLUMN_LIST, rollupDaySql } from "../../bulk/mode-rollup.ts";
import { dialectOf } from "../search.ts";

const sql = Prisma.sql;

/** Replace the rollup rows of these runs (all runs when omitted) with what their signatures add up to. */
export async function rebuildFailureModeRollup(db: Db, runIds?: readonly string[]): Promise<void> {
  if (runIds && !runIds.length) return;
  const day = Prisma.raw(rollupDaySql(dialectOf(db), "fs"));
  const only = (alias: string) => (runIds ? sql`WHERE ${Prisma.raw(`"${alias}"`)}."runId" IN (${Prisma.join(runIds.map((r) => sql`${r}`))})` : Prisma.empty);
  await db.$transaction([
    db.$executeRaw`DELETE FROM "FailureModeRollup" ${only("FailureModeRollup")}`,
    db.$executeRaw`INSERT INTO "FailureModeRollup" (${Prisma.raw(ROLLUP_COLUMN_LIST)})
      SELECT fs."templateHash", fs."runId", fs."taskId", ${day}, MIN(fs."template"), MIN(fs."kind"), MIN(fs."category"),
        COUNT(DISTINCT fs."trajectoryId"), COUNT(DISTINCT CASE WHEN fs."outcome" = 'failed' THEN fs."trajectoryId" END), COUNT(*),
        MIN(fs."importedAt"), MAX(fs."importedAt")
      FROM "FailureSignature" fs ${only("fs")} GROUP BY fs."templateHash", fs."runId", fs."taskId", ${day}`,
  ]);
}
