// Stored replay layouts. Opening a replay otherwise costs one pass over all of a trajectory's output (a recording's
// chunks for step markers and idle pauses, or every step to lay out a synthesized session): about a second for
// 20 MB. The layout that pass produces is small (step times, chunk boundaries, gaps), so it is saved once and read
// back on later opens — after a restart, in another server process, or right after an import that warmed it.
import type { Db } from "../../db/client.ts";
import { findReplayLayout, saveReplayLayout } from "../../db/repositories/replay/layouts.ts";
import { layoutSchema } from "./layout-data.ts";
import { RecordedSource } from "./recorded.ts";
import type { ReplaySource, SourceDeps } from "./source.ts";
import { SynthesizedSource } from "./synthesized.ts";

/** Bump when the layout or what it is computed from changes: older stored layouts are then recomputed. */
export const REPLAY_LAYOUT_VERSION = 1;

/**
 * The stored layout of a trajectory as a replay source, or null when there is none, it is of another version, or it
 * does not fit the trajectory as it is now (then it is recomputed and overwritten).
 */
export async function loadReplayLayout(
  deps: SourceDeps,
  trajectoryId: string,
  expect: { stepCount: number; recordingId: string | null },
): Promise<ReplaySource | null> {
  const row = await findReplayLayout(deps.db, trajectoryId);
  if (!row || row.version !== REPLAY_LAYOUT_VERSION) return null;
  let json: unknown;
  try {
    json = JSON.parse(row.data);
  } catch {
    return null;
  }
  const parsed = layoutSchema.safeParse(json);
  if (!parsed.success) return null;
  const l = parsed.data;
  if (l.index.trajectoryId !== trajectoryId || l.index.steps.length !== expect.stepCount) return null;
  if (l.kind === "recording") {
    if (l.recordingId !== expect.recordingId || l.dbSeq.length !== l.index.chunks.length) return null;
    return new RecordedSource(deps, l.index, l.recordingId, l.dbSeq, l.keyframesOverBudget ?? null);
  }
  if (expect.recordingId !== null || l.starts.length !== l.index.chunks.length) return null;
  return new SynthesizedSource(deps, l.index, trajectoryId, l.starts, l.keyframesOverBudget ?? null);
}

export async function storeReplayLayout(db: Db, source: ReplaySource): Promise<void> {
  await saveReplayLayout(db, source.index.trajectoryId, REPLAY_LAYOUT_VERSION, JSON.stringify(source.layout()));
}
