// The browser's query back to URLs: canonical params, the small helpers pages use to read and patch them, step links.
import { encodeCursor } from "./cursor.ts";
import { DEFAULT_PER_PAGE, DEFAULT_SORT, type NumberRange, type TrajectoryListQuery } from "./registry.ts";
import type { RawParams } from "./schemas.ts";

export function paramsFromSearch(search: URLSearchParams): RawParams {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** First value of each search param (Next passes string | string[]). */
export function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
}

/** URL form of a range: "min..max", "min..", "..max" or a single number. */
export const formatRange = (r: NumberRange | undefined) =>
  r ? (r.min !== undefined && r.min === r.max ? `${r.min}` : `${r.min ?? ""}..${r.max ?? ""}`) : undefined;

/**
 * Canonical URL form of a query (fixed key order, defaults left out), so equal views have equal links.
 * `patch` overrides fields before serializing; a change to anything but page/cursor/cols resets paging.
 */
export function trajectoryQueryToParams(q: TrajectoryListQuery): URLSearchParams {
  const p = new URLSearchParams();
  const set = (k: string, v: string | undefined) => v !== undefined && v !== "" && p.append(k, v);
  set("q", q.q);
  for (const k of [
    "runId",
    "taskId",
    "model",
    "category",
    "outcome",
    "error",
    "datasetId",
    "forkError",
    "label",
    "labelSchema",
    "mode",
  ] as const)
    for (const v of q[k]) p.append(k, v);
  set("forks", q.forks);
  set("attempt", q.attempt);
  set("annotated", q.annotated);
  set("warnings", q.warnings);
  set("reward", formatRange(q.reward));
  set("steps", formatRange(q.steps));
  set("duration", formatRange(q.duration));
  set("firstErrorStep", formatRange(q.firstErrorStep));
  set("recovered", q.recovered);
  set("groupReward", formatRange(q.groupReward));
  set("groupSpread", q.groupSpread);
  set("labelledAt", q.labelledAt);
  const isDefaultSort =
    q.sort.length === DEFAULT_SORT.length && q.sort.every((s, i) => s.id === DEFAULT_SORT[i]!.id && s.desc === DEFAULT_SORT[i]!.desc);
  if (!isDefaultSort) {
    set("sort", q.sort.map((s) => s.id).join(","));
    set("dir", q.sort.map((s) => (s.desc ? "desc" : "asc")).join(","));
  }
  if (q.page > 1) set("page", String(q.page));
  if (q.perPage !== DEFAULT_PER_PAGE) set("perPage", String(q.perPage));
  if (q.cursor) set("cursor", encodeCursor(q.cursor));
  if (q.cols) set("cols", q.cols.join(","));
  return p;
}

/** True when any filter (not paging, sorting or columns) is set. */
export function hasFilters(q: TrajectoryListQuery): boolean {
  return (
    Boolean(
      q.q ||
      q.forks ||
      q.attempt ||
      q.annotated ||
      q.warnings ||
      q.reward ||
      q.steps ||
      q.duration ||
      q.firstErrorStep ||
      q.recovered ||
      q.groupReward ||
      q.groupSpread ||
      q.labelledAt,
    ) ||
    [q.runId, q.taskId, q.model, q.category, q.outcome, q.error, q.datasetId, q.forkError, q.label, q.labelSchema, q.mode].some(
      (l) => l.length > 0,
    )
  );
}

/** A new query with `patch` applied; anything but a paging/column change starts again at page 1. */
export function updateQuery(q: TrajectoryListQuery, patch: Partial<TrajectoryListQuery>): TrajectoryListQuery {
  const pagingOnly = Object.keys(patch).every((k) => k === "page" || k === "cursor" || k === "cols");
  return pagingOnly ? { ...q, ...patch } : { ...q, page: 1, cursor: undefined, ...patch };
}

/** Link that opens a trajectory at one step (the replay view reads `step`; the anchor serves the plain step list). */
export function stepHref(trajectoryId: string, stepIndex: number): string {
  return `/trajectories/${encodeURIComponent(trajectoryId)}?step=${stepIndex}#step-${stepIndex}`;
}
