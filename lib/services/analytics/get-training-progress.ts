// Training progress: pass@1 and pass@k of original rollouts per checkpoint, one series per model and method.
import { authorize, type ServiceContext } from "../context.ts";
import type { RunInfo, RunTaskSamples } from "../../db/repositories/analytics/run-samples.ts";
import { allRuns, runTaskSamples } from "./render-memo.ts";
import { METRIC_KS, rolloutFigures, type KKey, type RateEstimate } from "../../domain/analytics/metrics.ts";
import { bootstrapMeanPassAtK } from "../../domain/analytics/bootstrap.ts";
import type { Interval } from "../../domain/analytics/intervals.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";

export const PROGRESS_KS = METRIC_KS;

/** Below this many known-outcome rollouts a point is marked as resting on too little data to read. */
export const MIN_POINT_ROLLOUTS = 5;

export interface ProgressPoint {
  runId: string;
  runName: string;
  checkpoint: string | null;
  /** Training step parsed from the checkpoint name (the last number in it), for ordering; null when it has none. */
  step: number | null;
  tasks: number;
  /** Original rollouts with a known outcome, and how many passed. */
  rollouts: number;
  passed: number;
  /** Original rollouts with an unknown outcome (in no denominator). */
  unknown: number;
  passRate: RateEstimate;
  passAtK: Record<KKey, number | null>;
  /** Tasks with at least k known-outcome rollouts: the ones passAtK[k] averages over. */
  passAtKTasks: Record<KKey, number>;
  /** 95% interval of passAtK[k]: bootstrap over tasks and over rollouts within a task (fixed seed). */
  passAtKCi: Record<KKey, Interval | null>;
  /** Fewer than MIN_POINT_ROLLOUTS known-outcome rollouts: shown, but marked. */
  lowN: boolean;
}

export interface ProgressSeries {
  /** "model · method" */
  key: string;
  model: string | null;
  method: string | null;
  points: ProgressPoint[];
}

export function checkpointStep(checkpoint: string | null): number | null {
  const m = checkpoint?.match(/(\d+)(?!.*\d)/);
  return m ? Number(m[1]) : null;
}

/** Runs grouped into (model, method) series, each ordered by training step. Exported for task health. */
export function buildSeries(runs: readonly RunInfo[], samples: readonly RunTaskSamples[]): ProgressSeries[] {
  const byRun = new Map<string, RunTaskSamples[]>();
  for (const s of samples) byRun.set(s.runId, [...(byRun.get(s.runId) ?? []), s]);
  const series = new Map<string, ProgressSeries>();
  for (const run of runs) {
    const all = byRun.get(run.id) ?? [];
    const mine = all.filter((s) => s.n > 0);
    if (!mine.length) continue;
    const fig = rolloutFigures(all);
    const key = `${run.model ?? "unknown model"} · ${run.trainingMethod ?? "unknown method"}`;
    const s = series.get(key) ?? { key, model: run.model, method: run.trainingMethod, points: [] };
    s.points.push({
      runId: run.id,
      runName: run.name,
      checkpoint: run.checkpoint,
      step: checkpointStep(run.checkpoint),
      tasks: mine.length,
      rollouts: fig.passRate.n,
      passed: fig.passed,
      unknown: fig.unknown,
      passRate: fig.passRate,
      passAtK: fig.passAtK,
      passAtKTasks: fig.passAtKProblems,
      passAtKCi: Object.fromEntries(METRIC_KS.map((k) => [`${k}`, bootstrapMeanPassAtK(mine, k, { seed: 20260101 })])) as Record<
        KKey,
        Interval | null
      >,
      lowN: fig.passRate.n < MIN_POINT_ROLLOUTS,
    });
    series.set(key, s);
  }
  for (const s of series.values()) s.points.sort((a, b) => (a.step ?? -1) - (b.step ?? -1) || a.runName.localeCompare(b.runName));
  return [...series.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export async function getTrainingProgress(
  ctx: ServiceContext,
  filter: AnalyticsFilter,
): Promise<{ series: ProgressSeries[]; ks: readonly number[] }> {
  authorize(ctx, "trajectory:read");
  const [runs, samples] = await Promise.all([allRuns(ctx), runTaskSamples(ctx, filter)]);
  return { series: buildSeries(runs, samples), ks: PROGRESS_KS };
}
