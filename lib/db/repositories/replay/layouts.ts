// Stored replay layouts (ReplayLayout): opaque JSON written and validated by lib/services/replay (layout.ts).
import type { Db } from "../../client.ts";

export async function findReplayLayout(db: Db, trajectoryId: string): Promise<{ version: number; data: string } | null> {
  return db.replayLayout.findUnique({ where: { trajectoryId }, select: { version: true, data: true } });
}

export async function saveReplayLayout(db: Db, trajectoryId: string, version: number, data: string): Promise<void> {
  await db.replayLayout.upsert({ where: { trajectoryId }, create: { trajectoryId, version, data }, update: { version, data } });
}

/** Forget every stored layout (benchmarks measure the first-ever view with it). */
export async function deleteReplayLayouts(db: Db): Promise<number> {
  return (await db.replayLayout.deleteMany({})).count;
}

/**
 * Trajectories of these imports without a stored layout whose terminal output (step observations and recording) is
 * at least `minChars`: what an import lays out right away, found again when a re-run completes a killed import.
 */
export async function findUnlaidTrajectoriesOfImports(db: Db, importJobIds: readonly string[], minChars: number): Promise<string[]> {
  const out: string[] = [];
  for (const jobId of importJobIds) {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT t."id" FROM "Trajectory" t
      WHERE t."importJobId" = ${jobId} AND NOT EXISTS (SELECT 1 FROM "ReplayLayout" l WHERE l."trajectoryId" = t."id")
        AND COALESCE((SELECT r."byteSize" FROM "Recording" r WHERE r."trajectoryId" = t."id"), 0)
          + COALESCE((SELECT SUM(LENGTH(s."observation")) FROM "Step" s WHERE s."trajectoryId" = t."id"), 0) >= ${minChars}
      ORDER BY t."id"`;
    out.push(...rows.map((r) => r.id));
  }
  return out;
}
