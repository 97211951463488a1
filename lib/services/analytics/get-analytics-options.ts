// What the analytics filters offer: runs, models, checkpoints, training methods and task categories in the data.
import { authorize, type ServiceContext } from "../context.ts";
import type { RunInfo } from "../../db/repositories/analytics/run-samples.ts";
import { allRuns, allTasks } from "./render-memo.ts";

export interface AnalyticsOption {
  value: string;
  label: string;
  detail?: string | null;
  /** Runs (or, for task categories, tasks) with this value. */
  count: number;
}

export interface AnalyticsOptions {
  runId: AnalyticsOption[];
  model: AnalyticsOption[];
  checkpoint: AnalyticsOption[];
  method: AnalyticsOption[];
  category: AnalyticsOption[];
}

function tally(values: (string | null)[]): AnalyticsOption[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .map(([value, count]) => ({ value, label: value, count }))
    .sort((a, b) => a.label.localeCompare(b.label, "en", { numeric: true }));
}

const runDetail = (r: RunInfo) => [r.model, r.checkpoint, r.trainingMethod].filter(Boolean).join(" · ") || null;

export async function getAnalyticsOptions(ctx: ServiceContext): Promise<AnalyticsOptions> {
  authorize(ctx, "trajectory:read");
  const [runs, tasks] = await Promise.all([allRuns(ctx), allTasks(ctx)]);
  return {
    runId: runs.map((r) => ({ value: r.id, label: r.name, detail: runDetail(r), count: 1 })),
    model: tally(runs.map((r) => r.model)),
    checkpoint: tally(runs.map((r) => r.checkpoint)),
    method: tally(runs.map((r) => r.trainingMethod)),
    category: tally(tasks.map((t) => t.category)),
  };
}
