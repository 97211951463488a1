import { z } from "zod";
import { analyticsFilterFields, type AnalyticsFilter } from "./analytics-params.ts";

// Failure-mode query parameters: the analytics filter, plus tasks and an import-date range (the trajectory table's
// filters), and an optional comparison of two runs or two checkpoints. Strict for the API and CLI, tolerant for the
// page URL, both from the same fields.

const value = z.string().trim().min(1, "must not be empty").max(200, "is longer than 200 characters");
const multi = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(value).max(50, "has more than 50 values"));
const day = z.preprocess((v) => (v === "" ? undefined : v), z.iso.date({ message: "must be a date (YYYY-MM-DD)" }).optional());

const fields = {
  ...analyticsFilterFields,
  taskId: multi,
  /** Imported on or after this UTC day. */
  from: day,
  /** Imported on or before this UTC day. */
  to: day,
};

export interface FailureModeFilter extends AnalyticsFilter {
  taskId: string[];
  /** Inclusive lower bound (start of the `from` day, UTC). */
  from: Date | null;
  /** Exclusive upper bound (start of the day after `to`, UTC). */
  to: Date | null;
}

export const EMPTY_FAILURE_MODE_FILTER: FailureModeFilter = {
  runId: [],
  model: [],
  checkpoint: [],
  method: [],
  category: [],
  taskId: [],
  from: null,
  to: null,
};

const compareFields = {
  /** Compare two runs (ids) or two checkpoints: `baseline` against `compared`. */
  compareBy: z.enum(["run", "checkpoint"], { message: "must be run or checkpoint" }).optional(),
  baseline: value.optional(),
  compared: value.optional(),
  limit: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(500, "must be at most 500")
    .default(50),
};

export const failureModesQuerySchema = z
  .strictObject({ ...fields, ...compareFields })
  .refine((q) => !q.compareBy || (q.baseline && q.compared), {
    message: "a comparison needs both baseline and compared",
    path: ["compared"],
  });

export interface FailureModesQuery {
  filter: FailureModeFilter;
  compare: { by: "run" | "checkpoint"; baseline: string; compared: string } | null;
  limit: number;
}

function toFilter(q: { from?: string; to?: string } & Omit<FailureModeFilter, "from" | "to">): FailureModeFilter {
  const to = q.to ? new Date(`${q.to}T00:00:00Z`) : null;
  if (to) to.setUTCDate(to.getUTCDate() + 1);
  return {
    runId: q.runId,
    model: q.model,
    checkpoint: q.checkpoint,
    method: q.method,
    category: q.category,
    taskId: q.taskId,
    from: q.from ? new Date(`${q.from}T00:00:00Z`) : null,
    to,
  };
}

/** Parsed strict query (API, CLI). */
export function failureModesQueryFrom(q: z.infer<typeof failureModesQuerySchema>): FailureModesQuery {
  return {
    filter: toFilter(q),
    compare: q.compareBy && q.baseline && q.compared ? { by: q.compareBy, baseline: q.baseline, compared: q.compared } : null,
    limit: q.limit,
  };
}

/** Tolerant page-URL parse: bad values are dropped instead of failing the page. */
export function failureModesQueryFromUrl(params: Record<string, string | string[] | undefined>): FailureModesQuery {
  const one = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
  const list = (k: string) => {
    const r = multi.safeParse(params[k]);
    return r.success ? r.data : [];
  };
  const date = (k: string) => {
    const r = day.safeParse(one(k));
    return r.success ? r.data : undefined;
  };
  const by = one("compareBy");
  const baseline = one("baseline");
  const compared = one("compared");
  return {
    filter: toFilter({
      runId: list("runId"),
      model: list("model"),
      checkpoint: list("checkpoint"),
      method: list("method"),
      category: list("category"),
      taskId: list("taskId"),
      from: date("from"),
      to: date("to"),
    }),
    compare: (by === "run" || by === "checkpoint") && baseline && compared ? { by, baseline, compared } : null,
    limit: 50,
  };
}
