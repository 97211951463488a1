// Use cases behind the task and run pages and GET /api/v1/runs, /tasks: lists with pass rates, a task's pass@k per
// run, a run's error mix. Every figure comes from lib/domain/analytics/metrics.ts — the definitions the analytics
// pages, CLI and API share — so unknown outcomes are left out of each rate and counted on their own.
import { authorize, type ServiceContext } from "../context.ts";
import {
  findRun,
  findRunErrorMix,
  findRunList,
  findTask,
  findTaskList,
  type RunInfo,
  type TaskInfo,
} from "../../db/repositories/browse/catalog.ts";
import {
  findForkPointCells,
  findRolloutCells,
  type CellScope,
  type ForkPointCountCell,
  type RolloutCountCell,
} from "../../db/repositories/browse/catalog-cells.ts";
import { recoveryFigures, rolloutFigures, METRIC_KS, type RecoveryFigures, type RolloutFigures } from "../../domain/analytics/metrics.ts";
import { AppError } from "../../errors.ts";

export type { RunInfo, TaskInfo, RecoveryFigures, RolloutFigures };

/** A run, task or (run, task) pair with its rollout and recovery figures. */
export interface GroupSummary {
  id: string;
  name: string;
  detail: string | null;
  /** Original rollouts: counts by outcome, pass rate (Wilson 95%), mean pass@k over (run, task) cells. */
  figures: RolloutFigures;
  /** Fork points and their recovery attempts. */
  recovery: RecoveryFigures;
}

export interface RunSummary extends GroupSummary {
  model: string | null;
  checkpoint: string | null;
  trainingMethod: string | null;
}

export interface TaskSummary extends GroupSummary {
  category: string | null;
  difficulty: string | null;
}

/** The k values of the pass@k columns and API fields. */
export const PASS_AT = METRIC_KS;

const join = (xs: (string | null)[]) => xs.filter(Boolean).join(" · ") || null;

function groupBy<T extends { runId: string; taskId: string }>(xs: readonly T[], key: "runId" | "taskId"): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) out.set(x[key], [...(out.get(x[key]) ?? []), x]);
  return out;
}

async function cells(ctx: ServiceContext, scope: CellScope = {}): Promise<[RolloutCountCell[], ForkPointCountCell[]]> {
  return Promise.all([findRolloutCells(ctx.db, scope), findForkPointCells(ctx.db, scope)]);
}

const figuresOf = (rollouts: readonly RolloutCountCell[] = [], forks: readonly ForkPointCountCell[] = []) => ({
  figures: rolloutFigures(rollouts),
  recovery: recoveryFigures(forks),
});

export async function listRuns(ctx: ServiceContext): Promise<RunSummary[]> {
  authorize(ctx, "trajectory:read");
  const [runs, [rollouts, forks]] = await Promise.all([findRunList(ctx.db), cells(ctx)]);
  const r = groupBy(rollouts, "runId");
  const f = groupBy(forks, "runId");
  return runs.map((run) => ({
    ...run,
    detail: join([run.model, run.checkpoint, run.trainingMethod]),
    ...figuresOf(r.get(run.id), f.get(run.id)),
  }));
}

export async function listTasks(ctx: ServiceContext): Promise<TaskSummary[]> {
  authorize(ctx, "trajectory:read");
  const [tasks, [rollouts, forks]] = await Promise.all([findTaskList(ctx.db), cells(ctx)]);
  const r = groupBy(rollouts, "taskId");
  const f = groupBy(forks, "taskId");
  return tasks.map((task) => ({ ...task, detail: join([task.category, task.difficulty]), ...figuresOf(r.get(task.id), f.get(task.id)) }));
}

export interface TaskDetail {
  task: TaskInfo;
  /** Per run: the task's figures in that run (pass@k null where the run has fewer than k known-outcome rollouts). */
  runs: GroupSummary[];
}

export async function getTaskDetail(ctx: ServiceContext, id: string): Promise<TaskDetail> {
  authorize(ctx, "trajectory:read");
  const task = await findTask(ctx.db, id);
  if (!task) throw new AppError("NOT_FOUND", `No task with id ${id}`);
  const [rollouts, forks] = await cells(ctx, { taskId: id });
  const r = groupBy(rollouts, "runId");
  const f = groupBy(forks, "runId");
  const runs = await findRunList(ctx.db, [...new Set([...r.keys(), ...f.keys()])]);
  return {
    task,
    runs: runs
      .map((run) => ({ id: run.id, name: run.name, detail: join([run.model, run.checkpoint]), ...figuresOf(r.get(run.id), f.get(run.id)) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

export interface RunDetail {
  run: RunInfo;
  figures: RolloutFigures;
  recovery: RecoveryFigures;
  /** First error category of failed original rollouts; null category = no error found in the trace. */
  errorMix: { category: string | null; count: number; share: number }[];
  tasks: GroupSummary[];
}

export async function getRunDetail(ctx: ServiceContext, id: string): Promise<RunDetail> {
  authorize(ctx, "trajectory:read");
  const run = await findRun(ctx.db, id);
  if (!run) throw new AppError("NOT_FOUND", `No run with id ${id}`);
  const [[rollouts, forks], mix] = await Promise.all([cells(ctx, { runId: id }), findRunErrorMix(ctx.db, id)]);
  const r = groupBy(rollouts, "taskId");
  const f = groupBy(forks, "taskId");
  const tasks = await findTaskList(ctx.db, [...new Set([...r.keys(), ...f.keys()])]);
  const failed = mix.reduce((n, m) => n + m.count, 0);
  return {
    run,
    ...figuresOf(rollouts, forks),
    tasks: tasks.map((t) => ({ id: t.id, name: t.name, detail: t.category, ...figuresOf(r.get(t.id), f.get(t.id)) })),
    errorMix: mix.map((m) => ({ ...m, share: failed ? m.count / failed : 0 })),
  };
}
