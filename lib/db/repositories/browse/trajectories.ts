// Read side of the trajectory browser: filtered, sorted pages, counts and "select all matching". Returns DTOs.
// The sort map below (and the filters in trajectory-filters.ts) are the db half of the column registry in
// lib/validation/search-params/registry.ts.
// They compile to provider-neutral SQL (Prisma.sql fragments, all values bound as parameters) rather than Prisma's
// where/orderBy objects, because the full-text predicate (FTS5 / tsvector) cannot be expressed in Prisma's where,
// and an id list from the index does not fit either (Prisma caps SQLite queries at 999 parameters).
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { Dialect } from "../../dialect.ts";
import { isCommonSearch, type ParsedSearch } from "../search/index.ts";
import { cellCountSql, cellsAnswer, forkErrorCellCounts } from "./facet-cells.ts";
import type { ForkCategoryForm } from "../analytics/fork-category.ts";
import { MANY_CANDIDATES, planSearch, type SearchPlan } from "./search-plan.ts";
import { SEQ_SCANS_PRICED_OUT } from "./search-matches.ts";
import { budgetedBatch, isStatementTimeout, statementBudgetSql } from "../../statement-timeout.ts";
import { AppError } from "../../../errors.ts";
import {
  TRAJECTORY_COLUMNS,
  type PageCursor,
  type SortPart,
  type TrajectoryListQuery,
  type TrajectorySortId,
} from "../../../validation/search-params/index.ts";
import {
  annotationExists,
  filterConditions,
  labelScopeSql,
  list,
  scopeOf,
  whereClause,
  whereSql,
  type FilterScope,
  type Viewer,
} from "./trajectory-filters.ts";

const sql = Prisma.sql;

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
function pageSql(
  scope: FilterScope,
  conditions: Prisma.Sql[],
  sort: SortPart[],
  reverse: boolean,
  take: number,
  skip: number,
  verify: Prisma.Sql | null = null,
): Prisma.Sql {
  const order = orderBySql(orderKeys(sort, reverse));
  const ordered = sql`SELECT t."id" FROM "Trajectory" t${needsJoins(sort) ? JOINS : Prisma.empty}${whereClause(conditions)} ORDER BY ${order}`;
  // A search's candidates in list order, then its exact check on each in turn until the page is full (the fenced
  // subquery keeps its order, and the check runs on the rows the LIMIT pulls, not on every candidate).
  const inner = verify
    ? sql`SELECT c."id" FROM (${ordered} OFFSET 0) c WHERE ${verify} LIMIT ${take} OFFSET ${skip}`
    : sql`${ordered} LIMIT ${take} OFFSET ${skip}`;
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
  /** A search that ran out of its time budget: no rows, and not because nothing matches (see planSearch). */
  searchStopped?: boolean;
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
  manyCandidates = MANY_CANDIDATES,
): Promise<TrajectoryPage> {
  const scope = scopeOf(db, viewer, search);
  const page = search
    ? await readSearchPage(
        db,
        q,
        { ...scope, searchForm: (await isCommonSearch(db, search)) ? "probe" : "hits" },
        searchCap,
        manyCandidates,
      )
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

/**
 * Walking the list order for a page of a forkError filter reads about (skip + take) × others / matching rows; the set
 * form reads every match. Walk when that is fewer.
 */
function forkErrorForm(counts: { matching: number; others: number } | null, skip: number, take: number): ForkCategoryForm {
  return counts && counts.matching > 0 && (skip + take) * counts.others < counts.matching * counts.matching ? "walk" : "set";
}

async function readPage(db: Db, q: TrajectoryListQuery, scope: FilterScope, deepOffset: number): Promise<TrajectoryPage> {
  const offset = (q.page - 1) * q.perPage;
  // A forkError filter's total from the cells, when they answer its other filters: counting its matches through the
  // filter reads every attempt of the chosen categories (185,602 for the commonest at 10^6).
  const forkCounts = await forkErrorCellCounts((s) => db.$queryRaw<unknown[]>(s), q, scope);
  const conditions = filterConditions(q, scope);
  const countSql = cellsAnswer(q, scope) ? cellCountSql(q) : sql`SELECT COUNT(*) AS "c" FROM "Trajectory" t${whereClause(conditions)}`;
  /** The filters for a page of `take` rows after `skip`, the forkError filter in whichever form reads fewer rows. */
  const pageConditions = (skip: number, take: number) =>
    forkCounts ? filterConditions(q, { ...scope, forkErrorForm: forkErrorForm(forkCounts, skip, take) }) : conditions;
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
    const skip = q.cursor ? 0 : offset;
    const keyset = q.cursor ? [keysetSql(scope.dialect, orderKeys(q.sort, reverse), [...q.cursor.values, q.cursor.id])] : [];
    const page = db.$queryRaw<unknown[]>(pageSql(scope, [...pageConditions(skip, q.perPage), ...keyset], q.sort, reverse, q.perPage, skip));
    if (forkCounts) return finish(await page, forkCounts.matching, reverse);
    const [count, raw] = await db.$transaction([db.$queryRaw<unknown[]>(countSql), page]);
    return finish(raw, countSchema.parse(count)[0]!.c, reverse);
  }
  // A deep offset without a cursor: count first, then walk from whichever end of the result is nearer.
  return db.$transaction(async (tx) => {
    const total = forkCounts?.matching ?? countSchema.parse(await tx.$queryRaw<unknown[]>(countSql))[0]!.c;
    const reverse = offset > total / 2 && offset < total;
    const take = reverse ? Math.min(q.perPage, total - offset) : q.perPage;
    const skip = reverse ? Math.max(0, total - offset - take) : offset;
    return finish(await tx.$queryRaw<unknown[]>(pageSql(scope, pageConditions(skip, take), q.sort, reverse, take, skip)), total, reverse);
  });
}

/**
 * A page of search results. The count stops at SEARCH_COUNT_CAP + 1 rows; the page reads one row more than it shows,
 * so whether a next page exists is known without the total. Past the cap the total is a lower bound (the rows seen
 * so far), exact again on the last page. Each way of answering in planSearch's order, until one ends within its budget;
 * when none does, the page says the search stopped.
 */
async function readSearchPage(db: Db, q: TrajectoryListQuery, scope: FilterScope, cap: number, many: number): Promise<TrajectoryPage> {
  for (const { plan, budgetMs } of await planSearch(db, scope, many)) {
    try {
      return await runSearchPage(db, q, scope, cap, plan, budgetMs);
    } catch (e) {
      if (!isStatementTimeout(e)) throw e;
    }
  }
  return { rows: [], total: 0, totalCapped: false, nextCursor: null, prevCursor: null, searchStopped: true };
}

async function runSearchPage(
  db: Db,
  q: TrajectoryListQuery,
  scope: FilterScope,
  cap: number,
  plan: SearchPlan,
  budgetMs: number | null,
): Promise<TrajectoryPage> {
  const verify = plan.verify;
  const conditions = filterConditions(q, { ...scope, searchForm: plan.page });
  const candidates = sql`SELECT t."id" FROM "Trajectory" t${whereClause(filterConditions(q, { ...scope, searchForm: plan.count }))}`;
  const countSql = verify
    ? sql`SELECT COUNT(*) AS "c" FROM (SELECT 1 AS "x" FROM (${candidates} OFFSET 0) c WHERE ${verify} LIMIT ${cap + 1}) capped`
    : sql`SELECT COUNT(*) AS "c" FROM (${candidates} LIMIT ${cap + 1}) capped`;
  const offset = (q.page - 1) * q.perPage;
  const reverse = q.cursor?.dir === "before";
  const keyset = q.cursor ? [keysetSql(scope.dialect, orderKeys(q.sort, reverse), [...q.cursor.values, q.cursor.id])] : [];
  const settings = plan.scansPricedOut && scope.dialect === "postgresql" ? [SEQ_SCANS_PRICED_OUT] : [];
  const [count, raw] = (
    await budgetedBatch(db, budgetMs, [
      ...settings,
      countSql,
      pageSql(scope, [...conditions, ...keyset], q.sort, reverse, q.perPage + 1, q.cursor ? 0 : offset, verify),
    ])
  ).slice(settings.length);
  const fetched = parseRows(raw!);
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
 * How long each statement of "select all" for a search may run on PostgreSQL: an explicit action the user waits for,
 * but words that share millions of steps without standing together would otherwise run for minutes.
 */
export const SELECT_ALL_SEARCH_BUDGET_MS = 15_000;

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
  searchBudgetMs = SELECT_ALL_SEARCH_BUDGET_MS,
): Promise<{ ids: string[]; total: number }> {
  const scope = scopeOf(db, viewer, search);
  const from = needsJoins(q.sort) ? sql`"Trajectory" t${JOINS}` : sql`"Trajectory" t`;
  const where = whereSql(q, scope);
  const keys = orderKeys(q.sort, false);
  const budgetMs = search && scope.dialect === "postgresql" ? searchBudgetMs : null;
  try {
    return await db.$transaction(
      async (tx) => {
        if (budgetMs !== null) await tx.$queryRaw(statementBudgetSql(budgetMs));
        return await readMatchingIds(tx, q, scope, from, where, keys, limit);
      },
      // Two statements, each within the budget, under Prisma's limit for the whole transaction (5 s by default).
      budgetMs === null ? undefined : { maxWait: 10_000, timeout: 2 * budgetMs + 5_000 },
    );
  } catch (e) {
    if (!isStatementTimeout(e)) throw e;
    throw new AppError(
      "UNPROCESSABLE",
      `Selecting every match of this search was stopped after ${Math.round(budgetMs! / 1000)} s: its words appear in too many steps. Add a filter (run, task, outcome) or rarer words, then select again.`,
    );
  }
}

/** The ids, read one past the limit, and the total, counted only when they do not all fit. */
async function readMatchingIds(
  tx: Prisma.TransactionClient,
  q: TrajectoryListQuery,
  scope: FilterScope,
  from: Prisma.Sql,
  where: Prisma.Sql,
  keys: OrderKey[],
  limit: number,
): Promise<{ ids: string[]; total: number }> {
  const ids =
    scope.dialect === "sqlite"
      ? await idsAsOneString(tx, from, where, keys, limit + 1)
      : z
          .array(z.object({ id: z.string() }))
          .parse(await tx.$queryRaw<unknown[]>`SELECT t."id" FROM ${from}${where} ORDER BY ${orderBySql(keys)} LIMIT ${limit + 1}`)
          .map((r) => r.id);
  if (ids.length <= limit) return { ids, total: ids.length };
  const countSql = cellsAnswer(q, scope) ? cellCountSql(q) : sql`SELECT COUNT(*) AS "c" FROM "Trajectory" t${where}`;
  const total = countSchema.parse(await tx.$queryRaw<unknown[]>(countSql))[0]!.c;
  return { ids: ids.slice(0, limit), total };
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
