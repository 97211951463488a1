// The trajectory browser's filters, db half of the column registry's filter map (lib/validation/search-params): each
// filter compiles to a provider-neutral SQL predicate on alias `t` (Prisma.sql fragments, every value bound). Shared by
// the page, the facet counts and "select all matching" (trajectories.ts, facets.ts).
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { dialectOf, type Dialect } from "../../dialect.ts";
import { searchFilterSql, type ParsedSearch, type SearchForm } from "../search/index.ts";
import { ERROR_CATEGORY_SCHEMA_KEY, forkCategoryFilterSql, type ForkCategoryForm } from "../analytics/fork-category.ts";
import { NO_ERROR, RECOVERED_NEVER, type TrajectoryFilterKey, type TrajectoryListQuery } from "../../../validation/search-params/index.ts";

/** What a filter needs besides the query: the database dialect, the acting user ("annotated by me"), parsed search. */
export interface FilterScope {
  dialect: Dialect;
  actorId: string;
  search: ParsedSearch | null;
  /** How the search predicate is evaluated (default "hits"; see SearchForm). */
  searchForm?: SearchForm;
  /** How the forkError filter is evaluated (default "set"; see ForkCategoryForm). */
  forkErrorForm?: ForkCategoryForm;
  /** Whose labels the label filter, facet and column see (undefined = everyone's; blind annotators: their own). */
  labelAnnotatorIds?: string[];
  /** The search as matches already read in the same statement (a search's facets, search-matches.ts): a predicate on an id. */
  searchMatches?: (id: Prisma.Sql) => Prisma.Sql;
}

const sql = Prisma.sql;
export const list = (values: readonly (string | number)[]) => Prisma.join(values.map((v) => sql`${v}`));

function rangeSql(column: Prisma.Sql, r: { min?: number; max?: number } | undefined, scale = 1): Prisma.Sql | null {
  if (!r) return null;
  const parts: Prisma.Sql[] = [];
  if (r.min !== undefined) parts.push(sql`${column} >= ${r.min * scale}`);
  if (r.max !== undefined) parts.push(sql`${column} <= ${r.max * scale}`);
  return parts.length ? Prisma.join(parts, " AND ") : null;
}

export const annotationExists = (actorId?: string) =>
  actorId === undefined
    ? sql`EXISTS (SELECT 1 FROM "Annotation" a WHERE a."trajectoryId" = t."id")`
    : sql`EXISTS (SELECT 1 FROM "Annotation" a WHERE a."trajectoryId" = t."id" AND a."annotatorId" = ${actorId})`;

/** Error-category labels (any target on the trajectory) of alias `la`, limited to the visible annotators. */
export function labelScopeSql(s: Pick<FilterScope, "labelAnnotatorIds">): Prisma.Sql {
  const own = s.labelAnnotatorIds
    ? sql` AND la."annotatorId" IN (${list(s.labelAnnotatorIds.length ? s.labelAnnotatorIds : [""])})`
    : Prisma.empty;
  return sql`la."schemaId" IN (SELECT ls."id" FROM "LabelSchema" ls WHERE ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})${own}`;
}

/** A dataset's membership = its latest version's items. */
export const LATEST_VERSION_SQL = sql`v."version" = (SELECT MAX(v2."version") FROM "DatasetVersion" v2 WHERE v2."datasetId" = v."datasetId")`;

type KeyFilter = "runId" | "model" | "taskId" | "category" | "outcome";

/**
 * The run, model, task, task category and outcome filters on an alias with "runId", "taskId" and "outcome" columns:
 * a trajectory, a sibling attempt, or a facet cell (facet-cells.ts) — one definition, so every count means the same.
 */
export function keyFilters(alias: "t" | "s" | "c"): Record<KeyFilter, (q: TrajectoryListQuery) => Prisma.Sql | null> {
  const col = (name: string) => Prisma.raw(`${alias}."${name}"`);
  return {
    runId: (q) => (q.runId.length ? sql`${col("runId")} IN (${list(q.runId)})` : null),
    model: (q) => (q.model.length ? sql`${col("runId")} IN (SELECT r2."id" FROM "Run" r2 WHERE r2."model" IN (${list(q.model)}))` : null),
    taskId: (q) => (q.taskId.length ? sql`${col("taskId")} IN (${list(q.taskId)})` : null),
    category: (q) =>
      q.category.length ? sql`${col("taskId")} IN (SELECT k2."id" FROM "Task" k2 WHERE k2."category" IN (${list(q.category)}))` : null,
    outcome: (q) => (q.outcome.length ? sql`${col("outcome")} IN (${list(q.outcome)})` : null),
  };
}
const SIBLING_FILTERS = keyFilters("s");

/** The search filter on a trajectory id expression (default `t."id"`), or null without a search. */
export function searchOn(s: FilterScope, id?: Prisma.Sql): Prisma.Sql | null {
  if (!s.search) return null;
  return s.searchMatches ? s.searchMatches(id ?? sql`t."id"`) : searchFilterSql(s.dialect, s.search, s.searchForm, id);
}

/** Filter registry, db half: one SQL predicate per filter key (null = not set). */
const FILTER_SQL: Record<TrajectoryFilterKey | "q", (q: TrajectoryListQuery, s: FilterScope) => Prisma.Sql | null> = {
  q: (_q, s) => searchOn(s),
  ...keyFilters("t"),
  error: (q) => {
    if (!q.error.length) return null;
    const named = q.error.filter((e) => e !== NO_ERROR);
    const parts = [
      named.length ? sql`t."firstErrorCategory" IN (${list(named)})` : null,
      q.error.includes(NO_ERROR) ? sql`t."firstErrorCategory" IS NULL` : null,
    ].filter((p) => p !== null);
    return sql`(${Prisma.join(parts, " OR ")})`;
  },
  forks: (q) => (q.forks === "yes" ? sql`t."forkPointCount" > 0` : q.forks === "no" ? sql`t."forkPointCount" = 0` : null),
  attempt: (q) => (q.attempt === "yes" ? sql`t."parentId" IS NOT NULL` : q.attempt === "no" ? sql`t."parentId" IS NULL` : null),
  warnings: (q) => (q.warnings === "yes" ? sql`t."warningCount" > 0` : q.warnings === "no" ? sql`t."warningCount" = 0` : null),
  annotated: (q, s) =>
    q.annotated === "me"
      ? annotationExists(s.actorId)
      : q.annotated === "anyone"
        ? annotationExists()
        : q.annotated === "nobody"
          ? sql`NOT ${annotationExists()}`
          : null,
  datasetId: (q) =>
    q.datasetId.length
      ? sql`EXISTS (SELECT 1 FROM "DatasetItem" di JOIN "DatasetVersion" v ON v."id" = di."datasetVersionId" WHERE di."trajectoryId" = t."id" AND v."datasetId" IN (${list(q.datasetId)}) AND ${LATEST_VERSION_SQL})`
      : null,
  // The same category rule the recovery analytics group by (forkCategorySql), so a drill-down matches exactly
  forkError: (q, s) =>
    q.forkError.length
      ? forkCategoryFilterSql(
          sql`t."forkPointId"`,
          q.forkError.filter((e) => e !== NO_ERROR),
          q.forkError.includes(NO_ERROR),
          s.dialect,
          s.forkErrorForm,
        )
      : null,
  label: (q, s) =>
    q.label.length
      ? sql`EXISTS (SELECT 1 FROM "Annotation" la WHERE la."trajectoryId" = t."id" AND ${labelScopeSql(s)} AND la."value" IN (${list(q.label)}))`
      : null,
  reward: (q) => rangeSql(sql`t."reward"`, q.reward),
  steps: (q) => rangeSql(sql`t."stepCount"`, q.steps),
  duration: (q) => rangeSql(sql`t."durationMs"`, q.duration, 1000),
  // Analytics distribution drill-downs (see siblingGroupSql below)
  firstErrorStep: (q) => rangeSql(sql`t."firstErrorStep"`, q.firstErrorStep),
  recovered: (q) => (q.recovered ? recoveredSql(q, q.recovered) : null),
  groupReward: (q) => (q.groupReward || q.groupSpread ? groupRewardSql(q, q.groupReward, q.groupSpread) : null),
  groupSpread: () => null, // part of groupReward's predicate
  labelSchema: (q, s) => (q.labelSchema.length || q.labelledAt ? labelledSql(q, s) : null),
  labelledAt: () => null, // part of labelSchema's predicate
  // Failure-mode drill-down: a seek on the signature table's mode index per mode.
  mode: (q) =>
    q.mode.length
      ? sql`t."id" IN (SELECT fm."trajectoryId" FROM "FailureSignature" fm WHERE fm."templateHash" IN (${list(q.mode)}))`
      : null,
};

/**
 * A label of the given schemas made on the given UTC days (FROM..TO, TO excluded) — the day computed as the
 * annotation analytics compute periods, so a period's drill-down matches its count. Blind annotators: their own labels.
 */
function labelledSql(q: TrajectoryListQuery, s: FilterScope): Prisma.Sql {
  const parts = [sql`la."trajectoryId" = t."id"`];
  if (q.labelSchema.length)
    parts.push(sql`la."schemaId" IN (SELECT ls."id" FROM "LabelSchema" ls WHERE ls."key" IN (${list(q.labelSchema)}))`);
  if (q.labelledAt) {
    const [from, to] = q.labelledAt.split("..");
    const day = s.dialect === "postgresql" ? sql`to_char(la."createdAt", 'YYYY-MM-DD')` : sql`substr(la."createdAt", 1, 10)`;
    parts.push(sql`${day} >= ${from} AND ${day} < ${to}`);
  }
  if (s.labelAnnotatorIds) parts.push(sql`la."annotatorId" IN (${list(s.labelAnnotatorIds.length ? s.labelAnnotatorIds : [""])})`);
  return sql`EXISTS (SELECT 1 FROM "Annotation" la WHERE ${Prisma.join(parts, " AND ")})`;
}

/**
 * The sibling attempts of trajectory `t`'s fork point, alias `s`, within the table's run, model and task
 * category filters — the scope the analytics distributions computed them in (their drill links pass those filters),
 * so each filter below picks exactly the fork points counted in the chart's bar.
 */
function siblingsSql(q: TrajectoryListQuery): Prisma.Sql {
  const scope = [SIBLING_FILTERS.runId(q), SIBLING_FILTERS.model(q), SIBLING_FILTERS.category(q)].filter((p) => p !== null);
  return Prisma.join([sql`s."forkPointId" = t."forkPointId"`, ...scope], " AND ");
}

/** First success at 1-based attempt k: that attempt; "never": the known-outcome attempt with the smallest id. */
function recoveredSql(q: TrajectoryListQuery, recovered: string): Prisma.Sql {
  const sib = siblingsSql(q);
  if (recovered === RECOVERED_NEVER) {
    // As the histogram: a success only counts with a position (MIN over attemptIndex ignores NULLs).
    return sql`t."forkPointId" IS NOT NULL AND t."outcome" IN ('passed', 'failed')
      AND NOT EXISTS (SELECT 1 FROM "Trajectory" s WHERE ${sib} AND ((s."outcome" = 'passed' AND s."attemptIndex" IS NOT NULL) OR (s."outcome" IN ('passed', 'failed') AND s."id" < t."id")))`;
  }
  return sql`t."forkPointId" IS NOT NULL AND t."outcome" = 'passed' AND t."attemptIndex" = ${Number(recovered) - 1}
    AND NOT EXISTS (SELECT 1 FROM "Trajectory" s WHERE ${sib} AND s."outcome" = 'passed' AND s."attemptIndex" < t."attemptIndex")`;
}

/** Sibling groups by mean reward in [min, max) (max exclusive, as the histogram's buckets) and spread: the group's rewarded attempt with the smallest id. */
function groupRewardSql(
  q: TrajectoryListQuery,
  r: { min?: number; max?: number } | undefined,
  spread: "yes" | "no" | undefined,
): Prisma.Sql {
  const sib = siblingsSql(q);
  const parts = [
    sql`t."forkPointId" IS NOT NULL AND t."reward" IS NOT NULL`,
    sql`NOT EXISTS (SELECT 1 FROM "Trajectory" s WHERE ${sib} AND s."reward" IS NOT NULL AND s."id" < t."id")`,
  ];
  const mean = sql`(SELECT AVG(s."reward") FROM "Trajectory" s WHERE ${sib})`;
  if (r?.min !== undefined) parts.push(sql`${mean} >= ${r.min}`);
  if (r?.max !== undefined) parts.push(sql`${mean} < ${r.max}`);
  if (spread) {
    const flat = sql`(SELECT CASE WHEN COUNT(s."reward") > 1 AND MIN(s."reward") = MAX(s."reward") THEN 1 ELSE 0 END FROM "Trajectory" s WHERE ${sib})`;
    parts.push(sql`${flat} = ${spread === "no" ? 1 : 0}`);
  }
  return Prisma.join(parts, " AND ");
}

/** Who is looking: an id, or an id plus whose labels they may see (blind mode). */
export type Viewer = string | { id: string; labelAnnotatorIds?: string[] };

export function scopeOf(db: Db, viewer: Viewer, search: ParsedSearch | null): FilterScope {
  const v = typeof viewer === "string" ? { id: viewer } : viewer;
  return { dialect: dialectOf(db), actorId: v.id, search, labelAnnotatorIds: v.labelAnnotatorIds };
}

/** The active filters of a query as SQL predicates on alias `t`; `omit` leaves filters out (facet counts). */
export function filterConditions(
  q: TrajectoryListQuery,
  scope: FilterScope,
  omit: readonly (TrajectoryFilterKey | "q")[] = [],
): Prisma.Sql[] {
  return Object.entries(FILTER_SQL)
    .filter(([key]) => !(omit as readonly string[]).includes(key))
    .map(([, build]) => build(q, scope))
    .filter((p) => p !== null);
}

/** " WHERE a AND b", or nothing at all (so an unfiltered COUNT(*) stays a fast path on both databases). */
export function whereClause(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length ? sql` WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** WHERE clause for the query on alias `t`; `omit` leaves filters out. */
export function whereSql(q: TrajectoryListQuery, scope: FilterScope, omit: readonly (TrajectoryFilterKey | "q")[] = []): Prisma.Sql {
  return whereClause(filterConditions(q, scope, omit));
}
