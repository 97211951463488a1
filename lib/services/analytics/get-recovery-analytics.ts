// Recovery analytics, the headline view: per error category of the fork point, how often recovery attempts succeed.
import { authorize, type ServiceContext } from "../context.ts";
import { findRecoveryCells, type RecoveryCell } from "../../db/repositories/analytics/recovery.ts";
import { recoveryAtK, type RecoveryK } from "../../domain/analytics/pass-at-k.ts";
import { wilsonInterval, type Interval } from "../../domain/analytics/intervals.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { resolveDrillRuns } from "./drill-runs.ts";

export interface RecoveryFigures {
  forkPoints: number;
  /** Fork points whose category is an annotator's label (the rest use the detected category). */
  labelledForkPoints: number;
  /** Fork points with at least one attempt of known outcome — the denominator of the recovery rate. */
  evaluatedForkPoints: number;
  /** Every attempt, unknown outcomes included. */
  attempts: number;
  successfulAttempts: number;
  recoveredForkPoints: number;
  /** recoveredForkPoints / evaluatedForkPoints; null when no fork point has a known-outcome attempt. */
  recoveryRate: number | null;
  /** Wilson 95% interval of the recovery rate. */
  recoveryRateCi: Interval | null;
  /** Unbiased recovery@k over fork points with at least k known-outcome attempts (null when there are none). */
  recoveryAtK: Record<`${RecoveryK}`, number | null>;
  /** Mean 1-based position of the first successful attempt, over recovered fork points. */
  meanAttemptsToFirstSuccess: number | null;
}

export interface RecoveryCategory extends RecoveryFigures {
  /** Error category key; null = fork points with neither a label nor a detected category. */
  category: string | null;
}

export interface RecoveryReport {
  filter: AnalyticsFilter;
  categories: RecoveryCategory[];
  overall: RecoveryFigures;
  /** Run ids the trajectory table must be limited to for a drill-down to match (null = no run-level filter). */
  drillRunIds: string[] | null;
}

/** Figures for a set of (category, n, c) cells. Exported for the run comparison. */
export function summarizeRecovery(cells: readonly RecoveryCell[]): RecoveryFigures {
  let forkPoints = 0, labelled = 0, evaluated = 0, attempts = 0, successful = 0, recovered = 0, firstSum = 0, firstCount = 0;
  for (const x of cells) {
    forkPoints += x.forkPoints;
    labelled += x.labelledForkPoints;
    attempts += x.attempts;
    successful += x.c * x.forkPoints;
    if (x.n > 0) evaluated += x.forkPoints;
    if (x.c > 0) recovered += x.forkPoints;
    firstSum += x.firstSuccessSum;
    firstCount += x.firstSuccessCount;
  }
  return {
    forkPoints,
    labelledForkPoints: labelled,
    evaluatedForkPoints: evaluated,
    attempts,
    successfulAttempts: successful,
    recoveredForkPoints: recovered,
    recoveryRate: evaluated ? recovered / evaluated : null,
    recoveryRateCi: wilsonInterval(recovered, evaluated),
    recoveryAtK: recoveryAtK(cells.map((x) => ({ n: x.n, c: x.c, problems: x.forkPoints }))),
    meanAttemptsToFirstSuccess: firstCount ? firstSum / firstCount : null,
  };
}

/** Cells grouped into categories, largest first (uncategorized last). */
export function recoveryByCategory(cells: readonly RecoveryCell[]): RecoveryCategory[] {
  const byCat = new Map<string | null, RecoveryCell[]>();
  for (const x of cells) byCat.set(x.category, [...(byCat.get(x.category) ?? []), x]);
  return [...byCat.entries()]
    .map(([category, group]) => ({ category, ...summarizeRecovery(group) }))
    .sort((a, b) => Number(a.category === null) - Number(b.category === null) || b.forkPoints - a.forkPoints || (a.category ?? "").localeCompare(b.category ?? ""));
}

export async function getRecoveryAnalytics(ctx: ServiceContext, filter: AnalyticsFilter): Promise<RecoveryReport> {
  authorize(ctx, "trajectory:read");
  const [cells, drillRunIds] = await Promise.all([findRecoveryCells(ctx.db, filter), resolveDrillRuns(ctx, filter)]);
  return { filter, categories: recoveryByCategory(cells), overall: summarizeRecovery(cells), drillRunIds };
}
