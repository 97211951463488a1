// Keyframes of replays synthesized from steps (SynthesizedKeyframe): opaque JSON written and validated by
// lib/services/replay (synthesized.ts), one row per chunk that has a keyframe, tagged with the layout they fit.
import type { Db } from "../../client.ts";
import { isUniqueViolation } from "../../unique-violation.ts";

/** The keyframe at or before chunk `seq` of this layout (raw JSON), or null when none is stored. */
export async function findNearestSynthesizedKeyframe(
  db: Db,
  trajectoryId: string,
  layoutKey: string,
  seq: number,
): Promise<{ seq: number; keyframe: string } | null> {
  return db.synthesizedKeyframe.findFirst({
    where: { trajectoryId, layoutKey, seq: { lte: seq } },
    orderBy: { seq: "desc" },
    select: { seq: true, keyframe: true },
  });
}

/** Keyframes are complete once chunk 0 has one of this layout (they are written in one transaction). */
export async function findFirstSynthesizedKeyframe(db: Db, trajectoryId: string, layoutKey: string): Promise<string | null> {
  const row = await db.synthesizedKeyframe.findFirst({ where: { trajectoryId, layoutKey, seq: 0 }, select: { keyframe: true } });
  return row?.keyframe ?? null;
}

/**
 * Replace a trajectory's keyframes (those of older layouts too) in one transaction. Returns false when another
 * process stored them at the same moment (its rows stand: they were built from the same steps).
 */
export async function saveSynthesizedKeyframes(
  db: Db,
  trajectoryId: string,
  layoutKey: string,
  keyframes: readonly { seq: number; keyframe: string }[],
): Promise<boolean> {
  try {
    await db.$transaction([
      db.synthesizedKeyframe.deleteMany({ where: { trajectoryId } }),
      db.synthesizedKeyframe.createMany({ data: keyframes.map((k) => ({ trajectoryId, layoutKey, seq: k.seq, keyframe: k.keyframe })) }),
    ]);
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

/** Forget every stored synthesized keyframe (benchmarks measure a first view with them gone). */
export async function deleteSynthesizedKeyframes(db: Db): Promise<number> {
  return (await db.synthesizedKeyframe.deleteMany({})).count;
}
