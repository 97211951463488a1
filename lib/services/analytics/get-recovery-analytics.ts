// Recovery analytics, the headline view: per error category of the fork point, how often recovery attempts succeed.
import { authorize, type ServiceContext } from "../context.ts";
import { findRecoveryCells, type RecoveryCell } from "../../db/repositories/analytics/recovery.ts";
import { recoveryFigures, type RecoveryFigures } from "../../domain/analytics/metrics.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { resolveDrillRuns } from "./drill-runs.ts";

export type { RecoveryFigures };

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

/** Figures for a set of (category, n, c) cells — the domain's recovery definitions. Exported for the run comparison. */
export function summarizeRecovery(cells: readonly RecoveryCell[]): RecoveryFigures {
  return recoveryFigures(cells);
}

/** Cells grouped into categories, largest first (uncategorized last). */
export function recoveryByCategory(cells: readonly RecoveryCell[]): RecoveryCategory[] {
  const byCat = new Map<string | null, RecoveryCell[]>();
  for (const x of cells) byCat.set(x.category, [...(byCat.get(x.category) ?? []), x]);
  return [...byCat.entries()]
    .map(([category, group]) => ({ category, ...summarizeRecovery(group) }))
    .sort(
      (a, b) =>
        Number(a.category === null) - Number(b.category === null) ||
        b.forkPoints - a.forkPoints ||
        (a.category ?? "").localeCompare(b.category ?? ""),
    );
}

export async function getRecoveryAnalytics(ctx: ServiceContext, filter: AnalyticsFilter): Promise<RecoveryReport> {
  authorize(ctx, "trajectory:read");
  const [cells, drillRunIds] = await Promise.all([findRecoveryCells(ctx.db, filter), resolveDrillRuns(ctx, filter)]);
  return { filter, categories: recoveryByCategory(cells), overall: summarizeRecovery(cells), drillRunIds };
}
