// Two runs or two checkpoints side by side: which failure modes only one of them shows, and which grew or shrank —
// each as a share of that side's failed trajectories, with Newcombe's interval for the difference (as the run
// comparison reports rates), so "did checkpoint 400 fix the missing-module failures?" is one answer.
import { authorize, type ServiceContext } from "../context.ts";
import { countFailedTrajectories, findModes, type ModeRow } from "../../db/repositories/failure-modes/modes.ts";
import { rateDifference, type RateDifference } from "../../domain/analytics/intervals.ts";
import type { FailureModeFilter } from "../../validation/failure-modes-params.ts";

export interface SideFigures {
  trajectories: number;
  failedTrajectories: number;
  /** failedTrajectories over the side's failed trajectories (null when none failed). */
  share: number | null;
}

export interface ModeChange {
  id: string;
  signature: string;
  category: string;
  baseline: SideFigures;
  compared: SideFigures;
  /** compared share − baseline share, with its 95% interval (null when a side has no failed trajectory). */
  difference: RateDifference | null;
  /** The interval excludes 0. */
  significant: boolean;
}

export interface FailureModeComparison {
  by: "run" | "checkpoint";
  baseline: { value: string; failedTrajectories: number; modes: number };
  compared: { value: string; failedTrajectories: number; modes: number };
  onlyInCompared: ModeChange[];
  onlyInBaseline: ModeChange[];
  /** Modes in both, largest change first. */
  changed: ModeChange[];
}

/** Every mode a side can have: the lists are complete up to this, then cut to `limit` each. */
const ALL_MODES = 100_000;

export async function compareFailureModes(
  ctx: ServiceContext,
  filter: FailureModeFilter,
  compare: { by: "run" | "checkpoint"; baseline: string; compared: string },
  limit = 50,
): Promise<FailureModeComparison> {
  authorize(ctx, "trajectory:read");
  const side = (v: string): FailureModeFilter => (compare.by === "run" ? { ...filter, runId: [v] } : { ...filter, checkpoint: [v] });
  const a = side(compare.baseline),
    b = side(compare.compared);
  const [ma, mb, fa, fb] = await Promise.all([
    findModes(ctx.db, a, ALL_MODES),
    findModes(ctx.db, b, ALL_MODES),
    countFailedTrajectories(ctx.db, a),
    countFailedTrajectories(ctx.db, b),
  ]);
  const byA = new Map(ma.modes.map((m) => [m.templateHash, m]));
  const byB = new Map(mb.modes.map((m) => [m.templateHash, m]));
  const figures = (m: ModeRow | undefined, failed: number): SideFigures => ({
    trajectories: m?.trajectories ?? 0,
    failedTrajectories: m?.failedTrajectories ?? 0,
    share: failed ? (m?.failedTrajectories ?? 0) / failed : null,
  });
  const change = (id: string): ModeChange => {
    const x = byA.get(id),
      y = byB.get(id);
    const any = (x ?? y)!;
    const baseline = figures(x, fa),
      compared = figures(y, fb);
    const difference = rateDifference({ successes: baseline.failedTrajectories, n: fa }, { successes: compared.failedTrajectories, n: fb });
    return {
      id,
      signature: any.template,
      category: any.category,
      baseline,
      compared,
      difference,
      significant: !!difference && (difference.ci.lo > 0 || difference.ci.hi < 0),
    };
  };
  const bySize = (x: ModeChange, y: ModeChange) =>
    Math.abs(y.difference?.diff ?? 0) - Math.abs(x.difference?.diff ?? 0) ||
    y.compared.trajectories + y.baseline.trajectories - (x.compared.trajectories + x.baseline.trajectories) ||
    (x.id < y.id ? -1 : 1);
  const onlyInCompared = [...byB.keys()]
    .filter((id) => !byA.has(id))
    .map(change)
    .sort(bySize);
  const onlyInBaseline = [...byA.keys()]
    .filter((id) => !byB.has(id))
    .map(change)
    .sort(bySize);
  const changed = [...byA.keys()]
    .filter((id) => byB.has(id))
    .map(change)
    .sort(bySize);
  return {
    by: compare.by,
    baseline: { value: compare.baseline, failedTrajectories: fa, modes: ma.total },
    compared: { value: compare.compared, failedTrajectories: fb, modes: mb.total },
    onlyInCompared: onlyInCompared.slice(0, limit),
    onlyInBaseline: onlyInBaseline.slice(0, limit),
    changed: changed.slice(0, limit),
  };
}
