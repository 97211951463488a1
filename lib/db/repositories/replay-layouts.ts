// Stored replay layouts (ReplayLayout): opaque JSON written and validated by lib/services/replay (layout.ts).
import type { Db } from "../client.ts";

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
