import { z } from "zod";

// Analytics query parameters. One field set, two schemas as for the browser: strict for the API and CLI (a bad
// value is a 400 naming the parameter), tolerant for the page URL (a bad value is dropped). Keep both in sync by
// building them from `fields` only.

const value = z.string().trim().min(1, "must not be empty").max(200, "is longer than 200 characters");
const multi = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(value).max(50, "has more than 50 values"));

const fields = {
  /** Run ids. */
  runId: multi,
  model: multi,
  checkpoint: multi,
  /** Run.trainingMethod values (base, sft, grpo, recovery-grpo, …). */
  method: multi,
  /** Task categories. */
  category: multi,
};

/** The filter's fields, for query schemas that extend it (failure modes). */
export const analyticsFilterFields = fields;

/** Which rollouts an analytics figure is computed over (all of them when every list is empty). */
export interface AnalyticsFilter {
  runId: string[];
  model: string[];
  checkpoint: string[];
  method: string[];
  category: string[];
}

export const EMPTY_ANALYTICS_FILTER: AnalyticsFilter = { runId: [], model: [], checkpoint: [], method: [], category: [] };

export const analyticsFilterSchema = z.strictObject(fields);

/** Run comparison: 2–6 runs, the first is the baseline every other run is compared with. */
export const runComparisonSchema = z.strictObject({
  ...fields,
  compare: z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(value).min(2, "needs at least two runs to compare").max(6, "compares at most 6 runs"),
  ),
  k: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(64, "must be at most 64")
    .default(1),
});

/** Tolerant page-URL parse: unknown keys and bad values are dropped instead of failing the page. */
export function analyticsFilterFromUrl(params: Record<string, string | string[] | undefined>): AnalyticsFilter {
  const out: AnalyticsFilter = { ...EMPTY_ANALYTICS_FILTER };
  for (const key of Object.keys(fields) as (keyof AnalyticsFilter)[]) {
    const r = multi.safeParse(params[key]);
    out[key] = r.success ? r.data : [];
  }
  return out;
}

/** Compared runs from a page URL (tolerant: empty when absent or invalid). */
export function comparedRunsFromUrl(params: Record<string, string | string[] | undefined>): string[] {
  const r = multi.safeParse(params.compare);
  return r.success ? r.data.slice(0, 6) : [];
}

export function hasAnalyticsFilter(f: AnalyticsFilter): boolean {
  return Object.values(f).some((l) => l.length > 0);
}

/** Canonical query string of a filter (used by the page's links and exports). */
export function analyticsFilterToParams(f: AnalyticsFilter): URLSearchParams {
  const p = new URLSearchParams();
  for (const key of Object.keys(fields) as (keyof AnalyticsFilter)[]) for (const v of f[key]) p.append(key, v);
  return p;
}
