// What the trajectory page sends with its HTML for the replay: the timing index, where it opens (deep links are
// resolved here, so the first range can be preloaded with the page) and only the step lines around that point.
// The rest of the step list arrives in ranges as it is scrolled (step-summaries.ts).
import { authorize, type ServiceContext } from "../context.ts";
import { findStepHeads } from "../../db/repositories/browse/trajectory-detail.ts";
import { stepIndexAt } from "../../domain/replay/markers.ts";
import { deepLinkMs, type ReplayLink } from "../../domain/replay/player-options.ts";
import type { ReplayIndex, StepSummary } from "../../domain/replay/recording.ts";
import type { ScreenPoster } from "../../domain/replay/poster.ts";
import { getOpeningPoster } from "./poster.ts";
import { openReplay, summarizeStep } from "./session.ts";

/** Step lines sent with the page, around where it opens. */
export const OPENING_STEP_WINDOW = 60;

export interface ReplayOpening {
  index: ReplayIndex;
  /** Recording time the page opens at (a deep link's step or time, else 0). */
  startMs: number;
  /** Steps in the trajectory (rows of the step list). */
  stepCount: number;
  /** The step lines [from, from + steps.length) around the opening point. */
  stepWindow: { from: number; steps: StepSummary[] };
  /** The screen at startMs, for the page to show as HTML until the live terminal has drawn it (poster.ts). */
  poster: ScreenPoster | null;
}

export async function getReplayOpening(ctx: ServiceContext, id: string, link: ReplayLink): Promise<ReplayOpening> {
  authorize(ctx, "trajectory:read");
  const { index, stepCount } = await openReplay(ctx, id);
  const startMs = deepLinkMs(link, index.steps, index.durationMs) ?? 0;
  const at = link.step ?? stepIndexAt(index.steps, startMs) ?? 0;
  const from = Math.max(0, Math.min(at - Math.floor(OPENING_STEP_WINDOW / 3), stepCount - OPENING_STEP_WINDOW));
  const [heads, poster] = await Promise.all([
    findStepHeads(ctx.db, index.trajectoryId, from, from + OPENING_STEP_WINDOW),
    getOpeningPoster(ctx, index, Math.floor(startMs)),
  ]);
  return { index, startMs, stepCount, stepWindow: { from, steps: heads.map(summarizeStep) }, poster };
}
