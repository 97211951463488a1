// Links from an analytics figure to the trajectory table showing exactly the rollouts behind it. The parameters are
// the browser's own (lib/validation/search-params/), so the table's row count equals the figure.
import { NO_ERROR, RECOVERED_NEVER } from "./search-params/index.ts";
import type { AnalyticsFilter } from "./analytics-params.ts";

export interface DrillScope {
  filter: AnalyticsFilter;
  /** Runs matching the filter's run-level parts (null = no run-level filter). */
  drillRunIds: string[] | null;
}

function base(scope: DrillScope, runIds?: string[]): URLSearchParams {
  const p = new URLSearchParams();
  for (const id of runIds ?? scope.drillRunIds ?? []) p.append("runId", id);
  for (const c of scope.filter.category) p.append("category", c);
  return p;
}

/** Recovery attempts at fork points of one category (null = uncategorized); `passed` keeps only the successful ones. */
export function attemptsHref(scope: DrillScope, category: string | null | undefined, opts: { passed?: boolean } = {}): string {
  const p = base(scope);
  if (category !== undefined) p.append("forkError", category ?? NO_ERROR);
  p.set("attempt", "yes");
  if (opts.passed) p.append("outcome", "passed");
  return `/trajectories?${p}`;
}

/** Original rollouts (not recovery attempts) of one run, optionally one task and outcome. */
export function rolloutsHref(scope: DrillScope, runId: string, opts: { taskId?: string; outcome?: "passed" | "failed" } = {}): string {
  const p = base(scope, [runId]);
  if (opts.taskId) p.append("taskId", opts.taskId);
  if (opts.outcome) p.append("outcome", opts.outcome);
  p.set("attempt", "no");
  return `/trajectories?${p}`;
}

/** Original rollouts of one task across the filtered runs. */
export function taskRolloutsHref(scope: DrillScope, taskId: string, opts: { outcome?: "passed" | "failed" } = {}): string {
  const p = base(scope);
  p.append("taskId", taskId);
  if (opts.outcome) p.append("outcome", opts.outcome);
  p.set("attempt", "no");
  return `/trajectories?${p}`;
}

/** Trajectories whose step count lies in lo..hi: original rollouts, or recovery attempts when `attempts` is set. */
export function stepsHref(scope: DrillScope, lo: number, hi: number, opts: { attempts: boolean }): string {
  const p = base(scope);
  p.set("steps", `${lo}..${hi}`);
  p.set("attempt", opts.attempts ? "yes" : "no");
  return `/trajectories?${p}`;
}

/** Trajectories whose first error is at a step in lo..hi: original rollouts, or recovery attempts when `attempts` is set. */
export function firstErrorHref(scope: DrillScope, lo: number, hi: number, opts: { attempts: boolean }): string {
  const p = base(scope);
  p.set("firstErrorStep", `${lo}..${hi}`);
  p.set("attempt", opts.attempts ? "yes" : "no");
  return `/trajectories?${p}`;
}

/** One row per fork point that first recovered at 1-based attempt `k` (its successful attempt), or never (null). */
export function recoveredHref(scope: DrillScope, k: number | null): string {
  const p = base(scope);
  p.set("recovered", k === null ? RECOVERED_NEVER : String(k));
  return `/trajectories?${p}`;
}

/**
 * One row per sibling group whose mean reward lies in [lo, hi) — `last` bucket: lo and up, as the histogram — and
 * whose rewards differ (`spread`) or are all equal.
 */
export function groupRewardHref(scope: DrillScope, lo: number, hi: number, opts: { last: boolean; spread: boolean }): string {
  const p = base(scope);
  p.set("groupReward", opts.last ? `${lo}..` : `${lo}..${hi}`);
  p.set("groupSpread", opts.spread ? "yes" : "no");
  return `/trajectories?${p}`;
}

/** The day after `days` days from a "YYYY-MM-DD" UTC day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Trajectories with a label of `schema` made in the period starting on `start` (a UTC day or ISO week). */
export function labelledHref(scope: DrillScope, schema: string, start: string, period: "day" | "week"): string {
  const p = base(scope);
  p.set("labelSchema", schema);
  p.set("labelledAt", `${start}..${addDays(start, period === "day" ? 1 : 7)}`);
  return `/trajectories?${p}`;
}
