// Read side of the trajectory browser: filtered, sorted pages, counts and "select all matching". Returns DTOs.
// The filter and sort maps below are the db half of the column registry in lib/validation/search-params/registry.ts.
// They compile to provider-neutral SQL (Prisma.sql fragments, all values bound as parameters) rather than Prisma's
// where/orderBy objects, because the full-text predicate (FTS5 / tsvector) cannot be expressed in Prisma's where,
// and an id list from the index does not fit either (Prisma caps SQLite queries at 999 parameters).
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { dialectOf, type Dialect } from "../../dialect.ts";
import { isCommonSearch, searchFilterSql, type ParsedSearch, type SearchForm } from "../search/index.ts";
import { ERROR_CATEGORY_SCHEMA_KEY, forkCategorySql } from "../analytics/fork-category.ts";
import {
  NO_ERROR,
  RECOVERED_NEVER,
  TRAJECTORY_COLUMNS,
  type PageCursor,
  type SortPart,
  type TrajectoryFilterKey,
  type TrajectoryListQuery,
  type TrajectorySortId,
} from "../../../validation/search-params/index.ts";

export interface TrajectoryRow {
  id: string;
  taskId: string;
  taskName: string;
  taskCategory: string | null;
  runId: string;
  runName: string;
  model: string | null;
  checkpoint: string | null;
  outcome: string;
  reward: number | null;
  stepCount: number;
  durationMs: number | null;
  firstErrorCategory: string | null;
  firstErrorStep: number | null;
  forkPointCount: number;
  attemptCount: number;
  recoveryRate: number | null;
  annotationCount: number;
  annotatedByMe: boolean;
  /** Distinct error-category label values on this trajectory, as far as the viewer may see them. */
  labels: string[];
  isAttempt: boolean;
  parentId: string | null;
  attemptIndex: number | null;
  importedAt: string;
  /** Import warnings: part of its source could not be read (0 = read completely). */
  warningCount: number;
}

/** What a filter needs besides the query: the database dialect, the acting user ("annotated by me"), parsed search. */
export interface FilterScope {
  dialect: Dialect;
  actorId: string;
  search: ParsedSearch | null;
  /** How the search predicate is evaluated (default "hits"; see SearchForm). */
  searchForm?: SearchForm;
  /** Whose labels the label filter, facet and column see (undefined = everyone's; blind annotators: their own). */
  labelAnnotatorIds?: string[];
}

const sql = Prisma.sql;
const list = (values: readonly (string | number)[]) => Prisma.join(values.map((v) => sql`${v}`));

function rangeSql(column: Prisma.Sql, r: { min?: number; max?: number } | undefined, scale = 1): Prisma.Sql | null {
  if (!r) return null;
  const parts: Prisma.Sql[] = [];
  if (r.min !== undefined) parts.push(sql`${column} >= ${r.min * scale}`);
  if (r.max !== undefined) parts.push(sql`${column} <= ${r.max * scale}`);
  return parts.length ? Prisma.join(parts, " AND ") : null;
}

const annotationExists = (actorId?: string) =>
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

/** Filter registry, db half: one SQL predicate per filter key (null = not set). */
const FILTER_SQL: Record<TrajectoryFilterKey | "q", (q: TrajectoryListQuery, s: FilterScope) => Prisma.Sql | null> = {
  q: (_q, s) => (s.search ? searchFilterSql(s.dialect, s.search, s.searchForm) : null),
  runId: (q) => (q.runId.length ? sql`t."runId" IN (${list(q.runId)})` : null),
  model: (q) => (q.model.length ? sql`t."runId" IN (SELECT r2."id" FROM "Run" r2 WHERE r2."model" IN (${list(q.model)}))` : null),
  taskId: (q) => (q.taskId.length ? sql`t."taskId" IN (${list(q.taskId)})` : null),
  category: (q) =>
    q.category.length ? sql`t."taskId" IN (SELECT k2."id" FROM "Task" k2 WHERE k2."category" IN (${list(q.category)}))` : null,
  outcome: (q) => (q.outcome.length ? sql`t."outcome" IN (${list(q.outcome)})` : null),
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
  // The same category expression the recovery analytics group by, so a drill-down matches exactly
  forkError: (q, s) => {
    if (!q.forkError.length) return null;
    const named = q.forkError.filter((e) => e !== NO_ERROR);
    const cat = forkCategorySql("fe", s.dialect);
    const parts = [
      named.length ? sql`${cat} IN (${list(named)})` : null,
      q.forkError.includes(NO_ERROR) ? sql`${cat} IS NULL` : null,
    ].filter((p) => p !== null);
    return sql`t."forkPointId" IN (SELECT fe."id" FROM "ForkPoint" fe WHERE ${Prisma.join(parts, " OR ")})`;
  },
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
  const parts = [sql`s."forkPointId" = t."forkPointId"`];
  if (q.runId.length) parts.push(sql`s."runId" IN (${list(q.runId)})`);
  if (q.model.length) parts.push(sql`s."runId" IN (SELECT r3."id" FROM "Run" r3 WHERE r3."model" IN (${list(q.model)}))`);
  if (q.category.length) parts.push(sql`s."taskId" IN (SELECT k3."id" FROM "Task" k3 WHERE k3."category" IN (${list(q.category)}))`);
  return Prisma.join(parts, " AND ");
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

type ValueKind = (typeof TRAJECTORY_COLUMNS)[TrajectorySortId]["value"];
/** Sort registry, db half: the SQL expression, whether it can be NULL, and how to read the value off a row. */
const SORT_SQL: Record<TrajectorySortId, { expr: Prisma.Sql; nullable: boolean; value: (r: TrajectoryRow) => string | number | null }> = {
  task: { expr: sql`k."name"`, nullable: false, value: (r) => r.taskName },
  run: { expr: sql`r."name"`, nullable: false, value: (r) => r.runName },
  outcome: { expr: sql`t."outcome"`, nullable: false, value: (r) => r.outcome },
  reward: { expr: sql`t."reward"`, nullable: true, value: (r) => r.reward },
  stepCount: { expr: sql`t."stepCount"`, nullable: false, value: (r) => r.stepCount },
  durationMs: { expr: sql`t."durationMs"`, nullable: true, value: (r) => r.durationMs },
  firstError: { expr: sql`t."firstErrorCategory"`, nullable: true, value: (r) => r.firstErrorCategory },
  forkPointCount: { expr: sql`t."forkPointCount"`, nullable: false, value: (r) => r.forkPointCount },
  attemptCount: { expr: sql`t."attemptCount"`, nullable: false, value: (r) => r.attemptCount },
  recoveryRate: { expr: sql`t."recoveryRate"`, nullable: true, value: (r) => r.recoveryRate },
  annotations: { expr: sql`t."annotationCount"`, nullable: false, value: (r) => r.annotationCount },
  importedAt: { expr: sql`t."importedAt"`, nullable: false, value: (r) => r.importedAt },
};

interface OrderKey {
  expr: Prisma.Sql;
  desc: boolean;
  /** null = non-nullable column (no NULLS clause, so indexes stay usable on both databases). */
  nullsLast: boolean | null;
  kind: ValueKind;
}

/** The keys a page is ordered by: the requested sort (NULLs always last) plus the id as tie-breaker. */
function orderKeys(sort: SortPart[], reverse: boolean): OrderKey[] {
  const keys: OrderKey[] = sort.map((s) => {
    const c = SORT_SQL[s.id];
    return { expr: c.expr, desc: s.desc !== reverse, nullsLast: c.nullable ? !reverse : null, kind: TRAJECTORY_COLUMNS[s.id].value };
  });
  keys.push({ expr: sql`t."id"`, desc: reverse, nullsLast: null, kind: "text" });
  return keys;
}

function orderBySql(keys: OrderKey[]): Prisma.Sql {
  return Prisma.join(
    keys.map(
      (k) =>
        sql`${k.expr} ${Prisma.raw(k.desc ? "DESC" : "ASC")}${Prisma.raw(k.nullsLast === null ? "" : k.nullsLast ? " NULLS LAST" : " NULLS FIRST")}`,
    ),
  );
}

function bindValue(dialect: Dialect, kind: ValueKind, v: string | number): Prisma.Sql {
  if (kind !== "date" || typeof v !== "string") return sql`${v}`;
  // Prisma stores DateTime as ISO text with an explicit offset on SQLite and as timestamp(3) on PostgreSQL.
  return dialect === "sqlite"
    ? sql`${new Date(v).toISOString().replace("Z", "+00:00")}`
    : sql`CAST(${new Date(v).toISOString()} AS TIMESTAMP(3))`;
}

/** Rows strictly after `values` in the order `keys` (lexicographic, NULL-aware). */
function keysetSql(dialect: Dialect, keys: OrderKey[], values: (string | number | null)[]): Prisma.Sql {
  const after = (i: number): Prisma.Sql => {
    const k = keys[i]!;
    const v = values[i] ?? null;
    const rest = i + 1 < keys.length ? after(i + 1) : null;
    const nullsAfter = k.nullsLast === true;
    let gt: Prisma.Sql;
    let eq: Prisma.Sql;
    if (v === null) {
      gt = nullsAfter ? sql`1 = 0` : sql`${k.expr} IS NOT NULL`;
      eq = sql`${k.expr} IS NULL`;
    } else {
      const b = bindValue(dialect, k.kind, v);
      const cmp = k.desc ? sql`${k.expr} < ${b}` : sql`${k.expr} > ${b}`;
      gt = nullsAfter ? sql`(${cmp} OR ${k.expr} IS NULL)` : cmp;
      eq = sql`${k.expr} = ${b}`;
    }
    return rest ? sql`(${gt} OR (${eq} AND ${rest}))` : gt;
  };
  // A redundant bound on the first key lets both databases use its index as a range scan.
  const k0 = keys[0]!;
  const v0 = values[0] ?? null;
  const bound =
    v0 !== null && k0.nullsLast === null
      ? k0.desc
        ? sql`${k0.expr} <= ${bindValue(dialect, k0.kind, v0)} AND `
        : sql`${k0.expr} >= ${bindValue(dialect, k0.kind, v0)} AND `
      : Prisma.empty;
  return sql`${bound}${after(0)}`;
}

const num = z.union([z.number(), z.bigint()]).transform(Number);
const rowSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  taskName: z.string(),
  taskCategory: z.string().nullable(),
  runId: z.string(),
  runName: z.string(),
  model: z.string().nullable(),
  checkpoint: z.string().nullable(),
  outcome: z.string(),
  reward: num.nullable(),
  stepCount: num,
  durationMs: num.nullable(),
  firstErrorCategory: z.string().nullable(),
  firstErrorStep: num.nullable(),
  forkPointCount: num,
  attemptCount: num,
  recoveryRate: num.nullable(),
  annotationCount: num,
  mine: z.union([z.boolean(), num]).transform(Boolean),
  parentId: z.string().nullable(),
  attemptIndex: num.nullable(),
  importedAt: z.union([z.date(), z.string()]).transform((d) => new Date(d).toISOString()),
  warningCount: num,
});

function toRow(r: z.output<typeof rowSchema>): TrajectoryRow {
  const { mine, ...rest } = r;
  return { ...rest, annotatedByMe: mine, isAttempt: r.parentId !== null, labels: [] };
}

const countSchema = z.array(z.object({ c: num })).length(1);

const JOINS = sql` JOIN "Task" k ON k."id" = t."taskId" JOIN "Run" r ON r."id" = t."runId"`;
const needsJoins = (sort: SortPart[]) => sort.some((s) => s.id === "task" || s.id === "run");

/**
 * A page as a deferred join: the inner query orders and limits bare ids (an index walk that stops after one page),
 * the outer one fetches the page's columns. Ordering the joined, fully computed rows would sort all of them.
 * CROSS JOIN fixes SQLite's join order (its documented override): the page drives, each of its ids is one primary-key
 * lookup. Left free, SQLite walks the whole table in the order's index to skip the final sort of 25 rows.
 */
function pageSql(scope: FilterScope, conditions: Prisma.Sql[], sort: SortPart[], reverse: boolean, take: number, skip: number): Prisma.Sql {
  const order = orderBySql(orderKeys(sort, reverse));
  const inner = sql`SELECT t."id" FROM "Trajectory" t${needsJoins(sort) ? JOINS : Prisma.empty}${whereClause(conditions)} ORDER BY ${order} LIMIT ${take} OFFSET ${skip}`;
  return sql`SELECT t."id", t."taskId", k."name" AS "taskName", k."category" AS "taskCategory", t."runId", r."name" AS "runName", r."model", r."checkpoint",
    t."outcome", t."reward", t."stepCount", t."durationMs", t."firstErrorCategory", t."firstErrorStep", t."forkPointCount", t."attemptCount",
    t."recoveryRate", t."annotationCount", ${annotationExists(scope.actorId)} AS "mine", t."parentId", t."attemptIndex", t."importedAt", t."warningCount"
    FROM (${inner}) p CROSS JOIN "Trajectory" t${JOINS} WHERE t."id" = p."id" ORDER BY ${order}`;
}

/** From this offset on, a page without a cursor is counted from the nearer end of the result. */
const DEEP_OFFSET = 5_000;

/**
 * A search's count stops here: counting every trajectory that mentions a very common word (`pytest`, in 90 % of
 * them) costs as much as reading its whole posting list, for a number nobody reads past "more than 1,000".
 */
export const SEARCH_COUNT_CAP = 1_000;

export interface TrajectoryPage {
  rows: TrajectoryRow[];
  /** Matching trajectories; a lower bound when `totalCapped`. */
  total: number;
  /** True when counting stopped at the cap (searches only): there are more than `total`. */
  totalCapped: boolean;
  /** Keyset cursors for the neighbouring pages (null at either end). */
  nextCursor: PageCursor | null;
  prevCursor: PageCursor | null;
}

function cursorFor(row: TrajectoryRow | undefined, sort: SortPart[], dir: PageCursor["dir"]): PageCursor | null {
  return row ? { dir, values: sort.map((s) => SORT_SQL[s.id].value(row)), id: row.id } : null;
}

/**
 * One page and the total, in one transaction. With a cursor the page is found by keyset (cost independent of
 * depth); without one by offset, counted from whichever end of the result is nearer. A search counts up to
 * SEARCH_COUNT_CAP only, and a very common search term is checked per candidate in list order ("probe"), so the
 * page query stops after one page instead of reading every match.
 */
export async function findTrajectoriesPage(
  db: Db,
  q: TrajectoryListQuery,
  viewer: Viewer,
  search: ParsedSearch | null = null,
  deepOffset = DEEP_OFFSET,
  searchCap = SEARCH_COUNT_CAP,
): Promise<TrajectoryPage> {
  const scope = scopeOf(db, viewer, search);
  const page = search
    ? await readSearchPage(db, q, { ...scope, searchForm: (await isCommonSearch(db, search)) ? "probe" : "hits" }, searchCap)
    : await readPage(db, q, scope, deepOffset);
  const labels = await findLabelValues(
    db,
    page.rows.map((r) => r.id),
    scope,
  );
  return { ...page, rows: page.rows.map((r) => ({ ...r, labels: labels.get(r.id) ?? [] })) };
}

/** Distinct error-category label values per trajectory (one query for a page of ids). */
async function findLabelValues(db: Db, ids: string[], scope: FilterScope): Promise<Map<string, string[]>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<unknown[]>`SELECT DISTINCT la."trajectoryId" AS "id", la."value" AS "v" FROM "Annotation" la
    WHERE la."trajectoryId" IN (${list(ids)}) AND ${labelScopeSql(scope)} ORDER BY 2`;
  const out = new Map<string, string[]>();
  for (const r of z.array(z.object({ id: z.string(), v: z.string() })).parse(rows)) out.set(r.id, [...(out.get(r.id) ?? []), r.v]);
  return out;
}

const parseRows = (raw: unknown[]) => z.array(rowSchema).parse(raw).map(toRow);

async function readPage(db: Db, q: TrajectoryListQuery, scope: FilterScope, deepOffset: number): Promise<TrajectoryPage> {
  const conditions = filterConditions(q, scope);
  const countSql = sql`SELECT COUNT(*) AS "c" FROM "Trajectory" t${whereClause(conditions)}`;
  const offset = (q.page - 1) * q.perPage;
  const finish = (raw: unknown[], total: number, reverse: boolean): TrajectoryPage => {
    const rows = parseRows(raw);
    if (reverse) rows.reverse();
    return {
      rows,
      total,
      totalCapped: false,
      nextCursor: offset + rows.length < total ? cursorFor(rows.at(-1), q.sort, "after") : null,
      prevCursor: q.page > 1 ? cursorFor(rows[0], q.sort, "before") : null,
    };
  };
  if (q.cursor || offset < deepOffset) {
    // The page does not depend on the total: one batched transaction, no round trip in between.
    const reverse = q.cursor?.dir === "before";
    const keyset = q.cursor ? [keysetSql(scope.dialect, orderKeys(q.sort, reverse), [...q.cursor.values, q.cursor.id])] : [];
    const [count, raw] = await db.$transaction([
      db.$queryRaw<unknown[]>(countSql),
      db.$queryRaw<unknown[]>(pageSql(scope, [...conditions, ...keyset], q.sort, reverse, q.perPage, q.cursor ? 0 : offset)),
    ]);
    return finish(raw, countSchema.parse(count)[0]!.c, reverse);
  }
  // A deep offset without a cursor: count first, then walk from whichever end of the result is nearer.
  return db.$transaction(async (tx) => {
    const total = countSchema.parse(await tx.$queryRaw<unknown[]>(countSql))[0]!.c;
    const reverse = offset > total / 2 && offset < total;
    const take = reverse ? Math.min(q.perPage, total - offset) : q.perPage;
    const skip = reverse ? Math.max(0, total - offset - take) : offset;
    return finish(await tx.$queryRaw<unknown[]>(pageSql(scope, conditions, q.sort, reverse, take, skip)), total, reverse);
  });
}

/**
 * A page of search results. The count stops at SEARCH_COUNT_CAP + 1 rows; the page reads one row more than it shows,
 * so whether a next page exists is known without the total. Past the cap the total is a lower bound (the rows seen
 * so far), exact again on the last page.
 */
async function readSearchPage(db: Db, q: TrajectoryListQuery, scope: FilterScope, cap: number): Promise<TrajectoryPage> {
  const conditions = filterConditions(q, scope);
  const countConditions = scope.searchForm === "probe" ? conditions : filterConditions(q, { ...scope, searchForm: "hitSet" });
  const countSql = sql`SELECT COUNT(*) AS "c" FROM (SELECT 1 AS "x" FROM "Trajectory" t${whereClause(countConditions)} LIMIT ${cap + 1}) capped`;
  const offset = (q.page - 1) * q.perPage;
  const reverse = q.cursor?.dir === "before";
  const keyset = q.cursor ? [keysetSql(scope.dialect, orderKeys(q.sort, reverse), [...q.cursor.values, q.cursor.id])] : [];
  const [count, raw] = await db.$transaction([
    db.$queryRaw<unknown[]>(countSql),
    db.$queryRaw<unknown[]>(pageSql(scope, [...conditions, ...keyset], q.sort, reverse, q.perPage + 1, q.cursor ? 0 : offset)),
  ]);
  const fetched = parseRows(raw);
  const rows = fetched.slice(0, q.perPage);
  if (reverse) rows.reverse();
  // Going back, the page after this one is where we came from; going forward, the extra row says whether it exists.
  const more = reverse || fetched.length > q.perPage;
  const counted = countSchema.parse(count)[0]!.c;
  const seen = offset + rows.length;
  const capped = counted > cap && more;
  return {
    rows,
    total: counted <= cap ? counted : capped ? Math.max(cap, seen) : seen,
    totalCapped: capped,
    nextCursor: more ? cursorFor(rows.at(-1), q.sort, "after") : null,
    prevCursor: q.page > 1 ? cursorFor(rows[0], q.sort, "before") : null,
  };
}

/**
 * Ids of every matching trajectory in the list's order (up to `limit`), with the total. The ids are read once, one
 * past the limit: the usual case (everything fits) needs no separate COUNT over the same rows; only a truncated
 * selection counts the rest.
 */
export async function findMatchingTrajectoryIds(
  db: Db,
  q: TrajectoryListQuery,
  viewer: Viewer,
  search: ParsedSearch | null,
  limit: number,
): Promise<{ ids: string[]; total: number }> {
  const scope = scopeOf(db, viewer, search);
  const from = needsJoins(q.sort) ? sql`"Trajectory" t${JOINS}` : sql`"Trajectory" t`;
  const where = whereSql(q, scope);
  const keys = orderKeys(q.sort, false);
  return db.$transaction(async (tx) => {
    const ids =
      scope.dialect === "sqlite"
        ? await idsAsOneString(tx, from, where, keys, limit + 1)
        : z
            .array(z.object({ id: z.string() }))
            .parse(await tx.$queryRaw<unknown[]>`SELECT t."id" FROM ${from}${where} ORDER BY ${orderBySql(keys)} LIMIT ${limit + 1}`)
            .map((r) => r.id);
    if (ids.length <= limit) return { ids, total: ids.length };
    const total = countSchema.parse(await tx.$queryRaw<unknown[]>`SELECT COUNT(*) AS "c" FROM "Trajectory" t${where}`)[0]!.c;
    return { ids: ids.slice(0, limit), total };
  });
}

/**
 * On SQLite the ids come back as one string, aggregated in list order by the sort keys selected beside each id, not
 * one row each: mapping 68,000 one-column rows through Prisma's SQLite adapter cost ~150 ms at 10^5 trajectories,
 * twice the query (select-all p95 316 → 99 ms). PostgreSQL keeps rows: its adapter maps them cheaply, and an
 * ordered string_agg sorts them a second time (+40 ms). Ids are generated (cuid-like), so a comma separates them.
 */
async function idsAsOneString(
  tx: Prisma.TransactionClient,
  from: Prisma.Sql,
  where: Prisma.Sql,
  keys: OrderKey[],
  take: number,
): Promise<string[]> {
  const aliased = keys.map((k, i) => ({ ...k, expr: Prisma.raw(`x."k${i}"`) }));
  const rows = await tx.$queryRaw<unknown[]>`SELECT group_concat(x."id", ',' ORDER BY ${orderBySql(aliased)}) AS "ids" FROM (
    SELECT t."id", ${Prisma.join(keys.map((k, i) => sql`${k.expr} AS ${Prisma.raw(`"k${i}"`)}`))} FROM ${from}${where} ORDER BY ${orderBySql(keys)} LIMIT ${take}) x`;
  const joined = z
    .array(z.object({ ids: z.string().nullable() }))
    .length(1)
    .parse(rows)[0]!.ids;
  return joined ? joined.split(",") : [];
}

/** Task, run and outcome of a few trajectories (labels for search hits). */
export async function findTrajectoryLabels(
  db: Db,
  ids: string[],
): Promise<Map<string, { taskName: string; runName: string; outcome: string }>> {
  if (!ids.length) return new Map();
  const rows = await db.trajectory.findMany({
    where: { id: { in: ids } },
    select: { id: true, outcome: true, task: { select: { name: true } }, run: { select: { name: true } } },
  });
  return new Map(rows.map((r) => [r.id, { taskName: r.task.name, runName: r.run.name, outcome: r.outcome }]));
}
