// Task health: tasks to look at before they poison training — never passed, always passed (no signal), failing
// across consecutive checkpoints, labelled invalid / brittle verifier, or with rewards that contradict the verifier.
import { authorize, type ServiceContext } from "../context.ts";
import { allRuns, allTasks, runTaskSamples } from "./render-memo.ts";
import { findTaskSignals } from "../../db/repositories/analytics/task-signals.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { buildSeries } from "./get-training-progress.ts";

export const TASK_FLAGS = ["never-passed", "always-passed", "persistent-failure", "labelled-invalid", "reward-anomaly"] as const;
export type TaskFlag = (typeof TASK_FLAGS)[number];

export interface TaskHealthRow {
  taskId: string;
  name: string;
  category: string | null;
  /** Runs with at least one original rollout of known outcome on the task. */
  runs: number;
  rollouts: number;
  passed: number;
  flags: TaskFlag[];
  /** Series ("model · method") in which the task failed every rollout at two or more consecutive checkpoints. */
  persistentIn: string[];
  rewardAnomalies: number;
  invalidLabels: number;
}

export interface TaskHealthReport {
  tasks: TaskHealthRow[];
  counts: Record<TaskFlag, number>;
}

export async function getTaskHealth(ctx: ServiceContext, filter: AnalyticsFilter): Promise<TaskHealthReport> {
  authorize(ctx, "trajectory:read");
  const [tasks, runs, samples, signals] = await Promise.all([
    allTasks(ctx),
    allRuns(ctx),
    runTaskSamples(ctx, filter),
    findTaskSignals(ctx.db, filter),
  ]);
  const persistent = new Map<string, string[]>();
  for (const series of buildSeries(runs, samples)) {
    const order = series.points.map((p) => p.runId);
    const failedAll = new Set(samples.filter((s) => s.n > 0 && s.c === 0).map((s) => `${s.runId}\u0000${s.taskId}`));
    for (const task of new Set(samples.map((s) => s.taskId))) {
      const streak = order.some(
        (runId, i) => i > 0 && failedAll.has(`${order[i - 1]}\u0000${task}`) && failedAll.has(`${runId}\u0000${task}`),
      );
      if (streak) persistent.set(task, [...(persistent.get(task) ?? []), series.key]);
    }
  }
  const signalBy = new Map(signals.map((s) => [s.taskId, s]));
  const rows: TaskHealthRow[] = [];
  for (const task of tasks) {
    const mine = samples.filter((s) => s.taskId === task.id && s.n > 0);
    const sig = signalBy.get(task.id);
    const rollouts = mine.reduce((n, s) => n + s.n, 0);
    const passed = mine.reduce((n, s) => n + s.c, 0);
    const flags: TaskFlag[] = [];
    if (rollouts > 0 && passed === 0) flags.push("never-passed");
    if (rollouts > 0 && mine.every((s) => s.c === s.n)) flags.push("always-passed");
    if (persistent.has(task.id)) flags.push("persistent-failure");
    if (sig?.invalidLabels) flags.push("labelled-invalid");
    if (sig?.rewardAnomalies) flags.push("reward-anomaly");
    if (!flags.length) continue;
    rows.push({
      taskId: task.id,
      name: task.name,
      category: task.category,
      runs: mine.length,
      rollouts,
      passed,
      flags,
      persistentIn: persistent.get(task.id) ?? [],
      rewardAnomalies: sig?.rewardAnomalies ?? 0,
      invalidLabels: sig?.invalidLabels ?? 0,
    });
  }
  rows.sort((a, b) => b.flags.length - a.flags.length || a.name.localeCompare(b.name));
  const counts = Object.fromEntries(TASK_FLAGS.map((f) => [f, rows.filter((r) => r.flags.includes(f)).length])) as Record<TaskFlag, number>;
  return { tasks: rows, counts };
}
