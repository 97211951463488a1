import { z } from "zod";
import { OUTCOMES } from "../domain/trajectory.ts";

// The trajectory browser's query: one column registry, one filter registry, and two schemas built from them —
// a strict one for the HTTP API (a bad value is a 400 that names the parameter) and a tolerant one for page URLs
// (a bad value falls back to its default). Both come from the same field definitions, so they cannot drift apart.

/** Column registry, in display order. Every column sorts; ids double as sort keys (lib/db maps them to SQL). */
export const TRAJECTORY_COLUMN_IDS = [
  "task", "run", "outcome", "reward", "stepCount", "durationMs", "firstError",
  "forkPointCount", "attemptCount", "recoveryRate", "annotations", "importedAt",
] as const;
export type TrajectoryColumnId = (typeof TRAJECTORY_COLUMN_IDS)[number];

export function isTrajectoryColumnId(id: string): id is TrajectoryColumnId {
  return (TRAJECTORY_COLUMN_IDS as readonly string[]).includes(id);
}

export const TRAJECTORY_COLUMNS = {
  task: { label: "Task", hideable: false, width: 190, filter: "taskId", value: "text" },
  run: { label: "Run", hideable: true, width: 150, filter: "runId", value: "text" },
  outcome: { label: "Outcome", hideable: true, width: 100, filter: "outcome", value: "text" },
  reward: { label: "Reward", hideable: true, width: 72, filter: "reward", value: "number" },
  stepCount: { label: "Steps", hideable: true, width: 62, filter: "steps", value: "number" },
  durationMs: { label: "Duration", hideable: true, width: 82, filter: "duration", value: "number" },
  firstError: { label: "First error", hideable: true, width: 142, filter: "error", value: "text" },
  forkPointCount: { label: "Forks", hideable: true, width: 64, filter: "forks", value: "number" },
  attemptCount: { label: "Attempts", hideable: true, width: 96, filter: "attempt", value: "number" },
  recoveryRate: { label: "Recovered", hideable: true, width: 82, filter: null, value: "number" },
  annotations: { label: "Labels", hideable: true, width: 168, filter: "annotated", value: "number" },
  importedAt: { label: "Imported", hideable: true, width: 140, filter: null, value: "date" },
} as const satisfies Record<TrajectoryColumnId, { label: string; hideable: boolean; width: number; filter: TrajectoryFilterKey | null; value: "text" | "number" | "date" }>;

/** Facets and ranges the browser filters on. `multi` take several values, `choice` one of a few, `range` min..max. */
export const TRAJECTORY_FILTERS = {
  runId: { label: "Run", variant: "multi" },
  model: { label: "Model", variant: "multi" },
  taskId: { label: "Task", variant: "multi" },
  category: { label: "Task category", variant: "multi" },
  outcome: { label: "Outcome", variant: "multi" },
  error: { label: "Error category", variant: "multi" },
  forks: { label: "Has fork points", variant: "choice" },
  attempt: { label: "Recovery attempt", variant: "choice" },
  annotated: { label: "Annotated by", variant: "choice" },
  warnings: { label: "Import warnings", variant: "choice" },
  datasetId: { label: "Dataset", variant: "multi" },
  reward: { label: "Reward", variant: "range" },
  steps: { label: "Steps", variant: "range" },
  duration: { label: "Duration (s)", variant: "range" },
  // Recovery attempts by the error category of their fork point (labelled, else detected) — analytics drill-down
  forkError: { label: "Fork-point error", variant: "multi" },
  // Error-category values of people's labels (an annotator in blind mode counts and filters on their own)
  label: { label: "Label", variant: "multi" },
  // Analytics distributions drill down with these. The last three pick ONE row per fork point (a sibling
  // group of attempts), so the table's count equals the number of fork points in the chart's bar.
  firstErrorStep: { label: "First error at step", variant: "range" },
  recovered: { label: "Recovered at attempt", variant: "choice" },
  groupReward: { label: "Sibling-group mean reward", variant: "range" },
  groupSpread: { label: "Sibling rewards differ", variant: "choice" },
  // Annotation-progress drill-down — trajectories with a label of these schemas made on these UTC days
  labelSchema: { label: "Label schema", variant: "multi" },
  labelledAt: { label: "Labelled on", variant: "range" },
  /** Failure-mode drill-down: trajectories with a failing step of one of these modes (signature template hashes). */
  mode: { label: "Failure mode", variant: "multi" },
} as const;
export type TrajectoryFilterKey = keyof typeof TRAJECTORY_FILTERS;

export const TRAJECTORY_SORTS = TRAJECTORY_COLUMN_IDS;
export type TrajectorySortId = TrajectoryColumnId;
export const DEFAULT_SORT: SortPart[] = [{ id: "importedAt", desc: true }];
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;
export const MAX_SORT_KEYS = 3;
/** "No first error" in the error facet. */
export const NO_ERROR = "none";
export const YES_NO = ["yes", "no"] as const;
export const ANNOTATED = ["me", "anyone", "nobody"] as const;
/** `recovered`: the 1-based attempt that first succeeded, or "never" (known-outcome attempts, none succeeded). */
export const RECOVERED_NEVER = "never";

export interface SortPart {
  id: TrajectorySortId;
  desc: boolean;
}
export interface NumberRange {
  min?: number;
  max?: number;
}
/** Keyset position: the sort values and id of the row to continue after (or before). */
export interface PageCursor {
  dir: "after" | "before";
  values: (string | number | null)[];
  id: string;
}

const list = (msg: string) => z.string().trim().min(1, msg).max(200, "is longer than 200 characters");
/** A repeated query parameter (`?outcome=a&outcome=b`) arrives as string | string[]. */
const multi = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item).max(50, "has more than 50 values"));

function parseRange(raw: string, ctx: z.RefinementCtx, integer: boolean): NumberRange {
  const m = /^\s*(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?\s*$/.exec(raw) ?? /^\s*(-?\d+(?:\.\d+)?)\s*$/.exec(raw);
  const bad = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (!m) return bad(`bad range "${raw.slice(0, 40)}": use min..max, min.. or ..max (e.g. 10..50)`);
  const exact = m.length === 2;
  const min = m[1] === undefined ? undefined : Number(m[1]);
  const max = exact ? min : m[2] === undefined ? undefined : Number(m[2]);
  if (min === undefined && max === undefined) return bad("bad range: give a minimum, a maximum or both");
  if (integer && [min, max].some((n) => n !== undefined && !Number.isInteger(n))) return bad("bad range: bounds must be whole numbers");
  if (min !== undefined && max !== undefined && min > max) return bad(`bad range: min ${min} is greater than max ${max}`);
  return { min, max };
}
const range = (integer: boolean) => z.string().max(60).transform((raw, ctx) => parseRange(raw, ctx, integer));

const cursorJsonSchema = z.object({
  d: z.enum(["after", "before"]),
  v: z.array(z.union([z.string().max(500), z.number(), z.null()])).min(1).max(MAX_SORT_KEYS),
  id: z.string().min(1).max(200),
});

/** Opaque cursor for keyset paging: base64url of {d, v, id}. */
export function encodeCursor(c: PageCursor): string {
  const json = JSON.stringify({ d: c.dir, v: c.values, id: c.id });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const cursorSchema = z.string().max(2000).transform((raw, ctx): PageCursor => {
  try {
    const bin = atob(raw.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed = cursorJsonSchema.safeParse(JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))));
    if (parsed.success) return { dir: parsed.data.d, values: parsed.data.v, id: parsed.data.id };
  } catch {
    // fall through to the issue below
  }
  ctx.addIssue({ code: "custom", message: "is not a valid page cursor (take it from a previous response's nextCursor/prevCursor)" });
  return z.NEVER;
});

/** Decode a cursor string from a response (null when it is not a valid cursor). */
export function decodeCursor(raw: string): PageCursor | null {
  const r = cursorSchema.safeParse(raw);
  return r.success ? r.data : null;
}

const columnList = z.string().max(400).transform((raw, ctx) => {
  const ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !(TRAJECTORY_COLUMN_IDS as readonly string[]).includes(id));
  if (unknown.length) {
    ctx.addIssue({ code: "custom", message: `unknown column "${unknown[0]}" (columns: ${TRAJECTORY_COLUMN_IDS.join(", ")})` });
    return z.NEVER;
  }
  return TRAJECTORY_COLUMN_IDS.filter((id) => ids.includes(id));
});

const directionList = z.string().max(200).transform((raw, ctx) => {
  const dirs = raw.split(",").map((s) => s.trim());
  if (dirs.some((d) => d !== "asc" && d !== "desc")) {
    ctx.addIssue({ code: "custom", message: `must be asc or desc (comma-separated for several sort columns), got "${raw.slice(0, 40)}"` });
    return z.NEVER;
  }
  return dirs.map((d) => d === "desc");
});

/**
 * `sort`: comma-separated columns, each optionally with its direction — `stepCount.desc,reward.asc` (the documented
 * form), or bare ids with the directions in `dir` (`sort=stepCount,reward&dir=desc,asc`, the form page URLs use).
 */
const sortList = z.string().max(200).transform((raw, ctx): { id: TrajectorySortId; desc?: boolean }[] => {
  const parts = raw.split(",").map((s) => s.trim());
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  const out: { id: TrajectorySortId; desc?: boolean }[] = [];
  for (const part of parts) {
    const m = /^([A-Za-z]+)(?:\.(asc|desc))?$/.exec(part);
    const id = m?.[1];
    if (!m || !id || !(TRAJECTORY_SORTS as readonly string[]).includes(id)) {
      return fail(`unknown column "${(id ?? part).slice(0, 40)}" (sortable: ${TRAJECTORY_SORTS.join(", ")}; optionally with .asc or .desc, e.g. stepCount.desc,reward.asc)`);
    }
    out.push({ id: id as TrajectorySortId, desc: m[2] === undefined ? undefined : m[2] === "desc" });
  }
  if (out.length > MAX_SORT_KEYS) return fail(`sorts on at most ${MAX_SORT_KEYS} columns`);
  if (new Set(out.map((s) => s.id)).size !== out.length) return fail("names a column twice");
  return out;
});

/** Field definitions shared by both schemas. */
const fields = {
  q: z.string().trim().max(200, "is longer than 200 characters").optional(),
  runId: multi(list("must not be empty")),
  taskId: multi(list("must not be empty")),
  model: multi(list("must not be empty")),
  category: multi(list("must not be empty")),
  outcome: multi(z.enum(OUTCOMES, { message: `must be one of ${OUTCOMES.join(", ")}` })),
  error: multi(list("must not be empty")),
  datasetId: multi(list("must not be empty")),
  forkError: multi(list("must not be empty")),
  label: multi(list("must not be empty")),
  forks: z.enum(YES_NO, { message: "must be yes or no" }).optional(),
  attempt: z.enum(YES_NO, { message: "must be yes or no" }).optional(),
  annotated: z.enum(ANNOTATED, { message: "must be me, anyone or nobody" }).optional(),
  warnings: z.enum(YES_NO, { message: "must be yes or no" }).optional(),
  reward: range(false).optional(),
  steps: range(true).optional(),
  duration: range(false).optional(),

  firstErrorStep: range(true).optional(),
  recovered: z.string().regex(/^(never|[1-9]\d{0,5})$/, "must be a whole number of attempts (1, 2, …) or never").optional(),
  groupReward: range(false).optional(),
  groupSpread: z.enum(YES_NO, { message: "must be yes or no" }).optional(),
  labelSchema: multi(list("must not be empty")),
  mode: multi(list("must not be empty")),
  labelledAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/, "must be FROM..TO, two UTC days YYYY-MM-DD (TO excluded)")
    .refine((v) => { const [a, b] = v.split(".."); return a! < b!; }, "must start before it ends (FROM..TO, TO excluded)")
    .optional(),
  sort: sortList.optional(),
  dir: directionList.optional(),
  page: z.coerce.number({ message: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000").default(1),
  perPage: z.coerce.number({ message: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`).default(DEFAULT_PER_PAGE),
  cursor: cursorSchema.optional(),
  cols: columnList.optional(),
};

const rawQuerySchema = z.strictObject(fields);
type RawQuery = z.output<typeof rawQuerySchema>;

/** The parsed browser query that services and repositories take. */
export interface TrajectoryListQuery {
  q?: string;
  runId: string[];
  taskId: string[];
  model: string[];
  category: string[];
  outcome: (typeof OUTCOMES)[number][];
  error: string[];
  datasetId: string[];
  /** Attempts whose fork point has one of these error categories ("none" = uncategorized). */
  forkError: string[];
  /** Trajectories with a human `error-category` label of one of these values. */
  label: string[];
  forks?: (typeof YES_NO)[number];
  attempt?: (typeof YES_NO)[number];
  annotated?: (typeof ANNOTATED)[number];
  /** "yes": imported with warnings (part of its source could not be read). */
  warnings?: (typeof YES_NO)[number];
  reward?: NumberRange;
  steps?: NumberRange;
  duration?: NumberRange;
  /** 0-based step of the first error within this range. */
  firstErrorStep?: NumberRange;
  /**
   * One row per fork point whose first successful attempt (within the run/model/category filters) is this
   * 1-based attempt — that attempt; "never": fork points with known-outcome attempts and no success — their first
   * known-outcome attempt (smallest id).
   */
  recovered?: string;
  /** One row per sibling group (its first rewarded attempt by id) whose mean reward is in [min, max) — max exclusive, like the histogram's buckets. */
  groupReward?: NumberRange;
  /** With groupReward — "no": two or more rewarded attempts that all got the same reward; "yes": the rest. */
  groupSpread?: (typeof YES_NO)[number];
  /** Trajectories with a label of one of these schemas (keys) — with labelledAt, made in that period. */
  labelSchema: string[];
  /** Failure modes (FailureSignature.templateHash): trajectories with a failing step at one of them. */
  mode: string[];
  /** "FROM..TO" UTC days, TO excluded: trajectories with a label made in that period. */
  labelledAt?: string;
  sort: SortPart[];
  page: number;
  perPage: number;
  cursor?: PageCursor;
  /** Visible columns; undefined = the defaults. */
  cols?: TrajectoryColumnId[];
}

/** A cursor carries one value per sort column, of that column's type (null where the column is empty). */
function cursorFits(c: PageCursor, sort: SortPart[]): boolean {
  if (c.values.length !== sort.length) return false;
  return sort.every((s, i) => {
    const v = c.values[i];
    const kind = TRAJECTORY_COLUMNS[s.id].value;
    if (v === null) return true;
    if (kind === "number") return typeof v === "number" && Number.isFinite(v);
    return typeof v === "string" && (kind === "text" || !Number.isNaN(Date.parse(v)));
  });
}

function finish(raw: RawQuery, ctx: z.RefinementCtx | null): TrajectoryListQuery {
  const parts = raw.sort ?? DEFAULT_SORT;
  const dirs = raw.dir ?? [];
  if (dirs.length > parts.length) ctx?.addIssue({ code: "custom", path: ["dir"], message: `gives ${dirs.length} directions for ${parts.length} sort column(s)` });
  if (dirs.length && raw.sort?.some((s) => s.desc !== undefined)) {
    ctx?.addIssue({ code: "custom", path: ["dir"], message: "cannot be combined with directions in sort (use sort=stepCount.desc,reward.asc or sort=stepCount,reward&dir=desc,asc)" });
  }
  // A column without a direction sorts descending (largest, newest first), like a first click on its header.
  const sort = parts.map((s, i) => ({ id: s.id, desc: raw.sort ? (s.desc ?? dirs[i] ?? true) : (dirs[i] ?? s.desc ?? true) }));
  let cursor = raw.cursor;
  if (cursor && !cursorFits(cursor, sort)) {
    ctx?.addIssue({ code: "custom", path: ["cursor"], message: "does not match the sort (it was made for another sort order)" });
    cursor = undefined;
  }
  const { sort: _s, dir: _d, cursor: _c, q, ...rest } = raw;
  return { ...rest, q: q || undefined, sort, cursor };
}

/** Strict schema: unknown parameters and bad values are errors that name the parameter (the API answers 400). */
export const trajectoryListQuerySchema = rawQuerySchema.transform((raw, ctx) => finish(raw, ctx));

/** GET /api/v1/trajectories: the list's parameters plus API-only ones. */
export const trajectoryApiQuerySchema = z
  .strictObject({
    ...fields,
    select: z.enum(["ids"], { message: 'must be "ids" (every matching id instead of a page)' }).optional(),
    facets: z.enum(["1", "0", "true", "false"], { message: "must be 1 or 0" }).optional(),
  })
  .transform(({ select, facets, ...raw }, ctx) => ({ query: finish(raw, ctx), select, facets: facets === "1" || facets === "true" }));

const rawParamsSchema = z.record(z.string(), z.union([z.string(), z.array(z.string()), z.undefined()]));
const FIELD_KEYS = new Set(Object.keys(fields));

/** Parse URL params leniently: a bad value (or one bad item of a repeated param) is dropped and its default used. */
function parseTolerant(params: RawParams): TrajectoryListQuery {
  let input: RawParams = Object.fromEntries(Object.entries(params).filter(([k]) => FIELD_KEYS.has(k)));
  for (let attempt = 0; attempt < 40; attempt++) {
    const r = trajectoryListQuerySchema.safeParse(input);
    if (r.success) return r.data;
    const next: RawParams = { ...input };
    for (const issue of r.error.issues) {
      const [key, index] = issue.path;
      if (typeof key !== "string") continue;
      const value = next[key];
      if (typeof index === "number" && Array.isArray(value)) next[key] = value.filter((_, i) => i !== index);
      else delete next[key];
    }
    input = next;
  }
  return trajectoryListQuerySchema.parse({});
}

/** Tolerant schema for page URLs: each bad field falls back to its default instead of failing the page. */
export const trajectoryListUrlSchema = rawParamsSchema.transform(parseTolerant);

/** GET /api/v1/search parameters. */
export const searchQuerySchema = z.strictObject({
  q: z.string().trim().min(1, "is required (what to search for)").max(200, "is longer than 200 characters"),
  limit: z.coerce.number({ message: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(50, "must be at most 50").default(20),
  cursor: z.string().regex(/^\d{1,15}$/, "is not a valid search cursor (take it from nextCursor)").optional(),
});
export type SearchQueryParams = z.infer<typeof searchQuerySchema>;

/** Query params as Next passes them to pages and as URLSearchParams holds them: repeated keys become arrays. */
export type RawParams = Record<string, string | string[] | undefined>;

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
export const formatRange = (r: NumberRange | undefined) => (r ? (r.min !== undefined && r.min === r.max ? `${r.min}` : `${r.min ?? ""}..${r.max ?? ""}`) : undefined);

/**
 * Canonical URL form of a query (fixed key order, defaults left out), so equal views have equal links.
 * `patch` overrides fields before serializing; a change to anything but page/cursor/cols resets paging.
 */
export function trajectoryQueryToParams(q: TrajectoryListQuery): URLSearchParams {
  const p = new URLSearchParams();
  const set = (k: string, v: string | undefined) => v !== undefined && v !== "" && p.append(k, v);
  set("q", q.q);
  for (const k of ["runId", "taskId", "model", "category", "outcome", "error", "datasetId", "forkError", "label", "labelSchema", "mode"] as const) for (const v of q[k]) p.append(k, v);
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
  const isDefaultSort = q.sort.length === DEFAULT_SORT.length && q.sort.every((s, i) => s.id === DEFAULT_SORT[i]!.id && s.desc === DEFAULT_SORT[i]!.desc);
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
  return Boolean(q.q || q.forks || q.attempt || q.annotated || q.warnings || q.reward || q.steps || q.duration || q.firstErrorStep || q.recovered || q.groupReward || q.groupSpread || q.labelledAt) ||
    [q.runId, q.taskId, q.model, q.category, q.outcome, q.error, q.datasetId, q.forkError, q.label, q.labelSchema, q.mode].some((l) => l.length > 0);
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
