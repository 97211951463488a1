// Training progress: pass@1 and pass@k of original rollouts per checkpoint, one series per model and method.
import { authorize, type ServiceContext } from "../context.ts";
import type { RunInfo, RunTaskSamples } from "../../db/repositories/analytics/run-samples.ts";
import { allRuns, runTaskSamples } from "./render-memo.ts";
import { recoveryAtK, RECOVERY_KS, type RecoveryK } from "../../domain/analytics/pass-at-k.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";

export const PROGRESS_KS = RECOVERY_KS;

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
  passAtK: Record<`${RecoveryK}`, number | null>;
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
    const mine = (byRun.get(run.id) ?? []).filter((s) => s.n > 0);
    if (!mine.length) continue;
    const key = `${run.model ?? "unknown model"} · ${run.trainingMethod ?? "unknown method"}`;
    const s = series.get(key) ?? { key, model: run.model, method: run.trainingMethod, points: [] };
    s.points.push({
      runId: run.id,
      runName: run.name,
      checkpoint: run.checkpoint,
      step: checkpointStep(run.checkpoint),
      tasks: mine.length,
      rollouts: mine.reduce((n, x) => n + x.n, 0),
      passed: mine.reduce((n, x) => n + x.c, 0),
      passAtK: recoveryAtK(mine.map((x) => ({ n: x.n, c: x.c, problems: 1 }))),
    });
    series.set(key, s);
  }
  for (const s of series.values()) s.points.sort((a, b) => (a.step ?? -1) - (b.step ?? -1) || a.runName.localeCompare(b.runName));
  return [...series.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export async function getTrainingProgress(ctx: ServiceContext, filter: AnalyticsFilter): Promise<{ series: ProgressSeries[]; ks: readonly number[] }> {
  authorize(ctx, "trajectory:read");
  const [runs, samples] = await Promise.all([allRuns(ctx), runTaskSamples(ctx, filter)]);
  return { series: buildSeries(runs, samples), ks: PROGRESS_KS };
}
