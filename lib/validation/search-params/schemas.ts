// The browser's query schemas, built from one set of field definitions so they cannot drift apart: a strict one for
// the HTTP API (a bad value is a 400 that names the parameter) and a tolerant one for page URLs (a bad value falls
// back to its default). Also GET /api/v1/search's parameters.
import { z } from "zod";
import { OUTCOMES } from "../../domain/trajectory.ts";
import { cursorFits, cursorSchema } from "./cursor.ts";
import {
  ANNOTATED,
  DEFAULT_PER_PAGE,
  DEFAULT_SORT,
  MAX_PER_PAGE,
  MAX_SORT_KEYS,
  TRAJECTORY_COLUMN_IDS,
  TRAJECTORY_SORTS,
  YES_NO,
  type NumberRange,
  type TrajectoryListQuery,
  type TrajectorySortId,
} from "./registry.ts";

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
const range = (integer: boolean) =>
  z
    .string()
    .max(60)
    .transform((raw, ctx) => parseRange(raw, ctx, integer));

const columnList = z
  .string()
  .max(400)
  .transform((raw, ctx) => {
    const ids = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = ids.filter((id) => !(TRAJECTORY_COLUMN_IDS as readonly string[]).includes(id));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `unknown column "${unknown[0]}" (columns: ${TRAJECTORY_COLUMN_IDS.join(", ")})` });
      return z.NEVER;
    }
    return TRAJECTORY_COLUMN_IDS.filter((id) => ids.includes(id));
  });

const directionList = z
  .string()
  .max(200)
  .transform((raw, ctx) => {
    const dirs = raw.split(",").map((s) => s.trim());
    if (dirs.some((d) => d !== "asc" && d !== "desc")) {
      ctx.addIssue({
        code: "custom",
        message: `must be asc or desc (comma-separated for several sort columns), got "${raw.slice(0, 40)}"`,
      });
      return z.NEVER;
    }
    return dirs.map((d) => d === "desc");
  });

/**
 * `sort`: comma-separated columns, each optionally with its direction — `stepCount.desc,reward.asc` (the documented
 * form), or bare ids with the directions in `dir` (`sort=stepCount,reward&dir=desc,asc`, the form page URLs use).
 */
const sortList = z
  .string()
  .max(200)
  .transform((raw, ctx): { id: TrajectorySortId; desc?: boolean }[] => {
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
        return fail(
          `unknown column "${(id ?? part).slice(0, 40)}" (sortable: ${TRAJECTORY_SORTS.join(", ")}; optionally with .asc or .desc, e.g. stepCount.desc,reward.asc)`,
        );
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
  recovered: z
    .string()
    .regex(/^(never|[1-9]\d{0,5})$/, "must be a whole number of attempts (1, 2, …) or never")
    .optional(),
  groupReward: range(false).optional(),
  groupSpread: z.enum(YES_NO, { message: "must be yes or no" }).optional(),
  labelSchema: multi(list("must not be empty")),
  mode: multi(list("must not be empty")),
  labelledAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/, "must be FROM..TO, two UTC days YYYY-MM-DD (TO excluded)")
    .refine((v) => {
      const [a, b] = v.split("..");
      return a! < b!;
    }, "must start before it ends (FROM..TO, TO excluded)")
    .optional(),
  sort: sortList.optional(),
  dir: directionList.optional(),
  page: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1_000_000, "must be at most 1000000")
    .default(1),
  perPage: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)
    .default(DEFAULT_PER_PAGE),
  cursor: cursorSchema.optional(),
  cols: columnList.optional(),
};

const rawQuerySchema = z.strictObject(fields);
type RawQuery = z.output<typeof rawQuerySchema>;

function finish(raw: RawQuery, ctx: z.RefinementCtx | null): TrajectoryListQuery {
  const parts = raw.sort ?? DEFAULT_SORT;
  const dirs = raw.dir ?? [];
  if (dirs.length > parts.length)
    ctx?.addIssue({ code: "custom", path: ["dir"], message: `gives ${dirs.length} directions for ${parts.length} sort column(s)` });
  if (dirs.length && raw.sort?.some((s) => s.desc !== undefined)) {
    ctx?.addIssue({
      code: "custom",
      path: ["dir"],
      message: "cannot be combined with directions in sort (use sort=stepCount.desc,reward.asc or sort=stepCount,reward&dir=desc,asc)",
    });
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
  limit: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(50, "must be at most 50")
    .default(20),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "is not a valid search cursor (take it from nextCursor)")
    .optional(),
});
export type SearchQueryParams = z.infer<typeof searchQuerySchema>;

/** Query params as Next passes them to pages and as URLSearchParams holds them: repeated keys become arrays. */
export type RawParams = Record<string, string | string[] | undefined>;
