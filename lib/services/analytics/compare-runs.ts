// Run comparison: each run against the first (the baseline) — pass rate and recovery rate with Newcombe intervals,
// pass@k paired on shared tasks with a bootstrap over tasks, and recovery per error category.
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { findRecoveryCells } from "../../db/repositories/analytics/recovery.ts";
import type { RunInfo } from "../../db/repositories/analytics/run-samples.ts";
import { allRuns, runTaskSamples } from "./render-memo.ts";
import { meanPassAtK } from "../../domain/analytics/pass-at-k.ts";
import { rateDifference, type Interval, type RateDifference } from "../../domain/analytics/intervals.ts";
import { rolloutFigures } from "../../domain/analytics/metrics.ts";
import { pairByTask, pairedBootstrap, type PairedDifference, type TaskSamples } from "../../domain/analytics/bootstrap.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { recoveryByCategory, summarizeRecovery, type RecoveryFigures } from "./get-recovery-analytics.ts";

export interface ComparedRun {
  run: RunInfo;
  tasks: number;
  /** Original rollouts with a known outcome (the pass rate's denominator), and how many passed. */
  rollouts: number;
  passed: number;
  /** Original rollouts with an unknown outcome: in no denominator. */
  unknown: number;
  passRate: number | null;
  passRateCi: Interval | null;
  /** Mean pass@k over this run's tasks with at least k rollouts. */
  passAtK: number | null;
  recovery: RecoveryFigures;
  byCategory: { category: string | null; recovery: RecoveryFigures }[];
  /** Against the baseline (null for the baseline itself). */
  vsBaseline: {
    sharedTasks: number;
    passRate: RateDifference | null;
    /** Paired on shared tasks; null when the runs share no task with k rollouts each. */
    passAtK: PairedDifference | null;
    recoveryRate: RateDifference | null;
    byCategory: { category: string | null; recoveryRate: RateDifference | null }[];
  } | null;
}

export interface RunComparison {
  k: number;
  runs: ComparedRun[];
}

const recoveryDiff = (a: RecoveryFigures, b: RecoveryFigures) =>
  rateDifference(
    { successes: a.recoveredForkPoints, n: a.evaluatedForkPoints },
    { successes: b.recoveredForkPoints, n: b.evaluatedForkPoints },
  );

/**
 * The named runs side by side. Of the filter only the task category applies: the runs are chosen by name, so run,
 * model, checkpoint and method filters (which could exclude the baseline itself) are ignored here.
 */
export async function compareRuns(ctx: ServiceContext, runIds: string[], k: number, pageFilter: AnalyticsFilter): Promise<RunComparison> {
  authorize(ctx, "trajectory:read");
  const filter: AnalyticsFilter = { runId: [], model: [], checkpoint: [], method: [], category: pageFilter.category };
  if (new Set(runIds).size !== runIds.length) throw new AppError("INVALID_INPUT", "compare names a run twice");
  const all = await allRuns(ctx);
  const runs = runIds.map((id) => all.find((r) => r.id === id) ?? null);
  const missing = runIds.find((_, i) => runs[i] === null);
  if (missing !== undefined) throw new AppError("NOT_FOUND", `no run with id "${missing}"`);
  const scoped = (id: string): AnalyticsFilter => ({ ...filter, runId: [id] });
  const [samples, cells] = await Promise.all([
    runTaskSamples(ctx, { ...filter, runId: runIds }),
    Promise.all(runIds.map((id) => findRecoveryCells(ctx.db, scoped(id)))),
  ]);
  const perRun = runIds.map(
    (id) => new Map<string, TaskSamples>(samples.filter((s) => s.runId === id && s.n > 0).map((s) => [s.taskId, { n: s.n, c: s.c }])),
  );
  const figures = runIds.map((id) => rolloutFigures(samples.filter((s) => s.runId === id)));
  const base = perRun[0]!;
  const baseRecovery = summarizeRecovery(cells[0]!);
  const baseByCat = new Map(recoveryByCategory(cells[0]!).map((c) => [c.category, c]));
  const baseTotals = totals(base);
  return {
    k,
    runs: runs.map((run, i) => {
      const mine = perRun[i]!;
      const t = totals(mine);
      const fig = figures[i]!;
      const recovery = summarizeRecovery(cells[i]!);
      const byCat = recoveryByCategory(cells[i]!);
      const pairs = pairByTask(base, mine);
      return {
        run: run!,
        tasks: mine.size,
        rollouts: fig.passRate.n,
        passed: fig.passed,
        unknown: fig.unknown,
        passRate: fig.passRate.rate,
        passRateCi: fig.passRate.ci,
        passAtK: meanPassAtK(
          [...mine.values()].map((s) => ({ ...s, problems: 1 })),
          k,
        ),
        recovery,
        byCategory: byCat.map((c) => ({ category: c.category, recovery: c })),
        vsBaseline:
          i === 0
            ? null
            : {
                sharedTasks: pairs.length,
                passRate: rateDifference({ successes: baseTotals.c, n: baseTotals.n }, { successes: t.c, n: t.n }),
                passAtK: pairedBootstrap(pairs, k, { seed: 20260101 }),
                recoveryRate: recoveryDiff(baseRecovery, recovery),
                byCategory: [...new Set([...baseByCat.keys(), ...byCat.map((c) => c.category)])].map((category) => {
                  const a = baseByCat.get(category);
                  const b = byCat.find((c) => c.category === category);
                  return { category, recoveryRate: a && b ? recoveryDiff(a, b) : null };
                }),
              },
      };
    }),
  };
}

function totals(m: ReadonlyMap<string, TaskSamples>): TaskSamples {
  let n = 0,
    c = 0;
  for (const s of m.values()) {
    n += s.n;
    c += s.c;
  }
  return { n, c };
}
