// GET /api/v1/runs, GET /api/v1/tasks and `reterm analytics runs|tasks --json`: the run and task pages' numbers as
// plain JSON for scripts — the same service calls as the pages, so the figures cannot drift apart.
import { authorize, type ServiceContext } from "../context.ts";
import { listRuns, listTasks, type GroupSummary } from "./browse-catalog.ts";
import type { KKey, RecoveryFigures } from "../../domain/analytics/metrics.ts";
import type { Interval } from "../../domain/analytics/intervals.ts";

export interface CatalogFigures {
  counts: { rollouts: number; passed: number; failed: number; unknown: number };
  /** passed / (passed + failed); unknown outcomes are in no denominator. */
  passRate: { rate: number | null; ci: Interval | null; n: number };
  passAtK: Record<KKey, number | null>;
  recovery: Omit<RecoveryFigures, "labelledForkPoints">;
}

export interface RunFigures extends CatalogFigures {
  id: string;
  name: string;
  model: string | null;
  checkpoint: string | null;
  trainingMethod: string | null;
  /** Tasks with at least k known-outcome rollouts in the run: the ones passAtK[k] averages over. */
  passAtKTasks: Record<KKey, number>;
}

export interface TaskFigures extends CatalogFigures {
  id: string;
  name: string;
  category: string | null;
  difficulty: string | null;
  /** Runs with at least k known-outcome rollouts of the task: the ones passAtK[k] averages over. */
  passAtKRuns: Record<KKey, number>;
}

function figures(g: GroupSummary): CatalogFigures {
  const { figures: f } = g;
  const { labelledForkPoints: _labelled, ...recovery } = g.recovery;
  void _labelled;
  return {
    counts: { rollouts: f.rollouts, passed: f.passed, failed: f.failed, unknown: f.unknown },
    passRate: { rate: f.passRate.rate, ci: f.passRate.ci, n: f.passRate.n },
    passAtK: f.passAtK,
    recovery,
  };
}

export async function listRunFigures(ctx: ServiceContext): Promise<{ runs: RunFigures[] }> {
  authorize(ctx, "trajectory:read");
  const runs = await listRuns(ctx);
  return {
    runs: runs.map((r) => ({
      id: r.id,
      name: r.name,
      model: r.model,
      checkpoint: r.checkpoint,
      trainingMethod: r.trainingMethod,
      ...figures(r),
      passAtKTasks: r.figures.passAtKProblems,
    })),
  };
}

export async function listTaskFigures(ctx: ServiceContext): Promise<{ tasks: TaskFigures[] }> {
  authorize(ctx, "trajectory:read");
  const tasks = await listTasks(ctx);
  return {
    tasks: tasks.map((t) => ({
      id: t.id,
      name: t.name,
      category: t.category,
      difficulty: t.difficulty,
      ...figures(t),
      passAtKRuns: t.figures.passAtKProblems,
    })),
  };
}
