// TrajectoryFacetCell as a source for counts: one row per (outcome, run, task, first error category, forks, attempt,
// warnings) with its count and range bounds, kept exact by triggers on Trajectory (see the facet_cells migration).
// When every active filter is one of those dimensions, a count or the facets' grouped pass sums a few thousand
// cells instead of reading every trajectory (at 10^6 on PostgreSQL, a COUNT(*) alone is ~100 ms, the grouped pass 1-2 s).
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { dialectOf } from "../../dialect.ts";
import { ERROR_CATEGORY_SCHEMA_KEY, labelledForkCategorySql } from "../analytics/fork-category.ts";
import { filterConditions, keyFilters, list, whereClause, type FilterScope } from "./trajectory-filters.ts";
import type { KeyedMatches } from "./search-matches.ts";
import { NO_ERROR, type TrajectoryFilterKey, type TrajectoryListQuery } from "../../../validation/search-params/index.ts";

const sql = Prisma.sql;

/** The filters a cell can answer: its key columns, and run / task attributes looked up by id. */
export const CELL_FILTERS = [
  "runId",
  "model",
  "taskId",
  "category",
  "outcome",
  "error",
  "forks",
  "attempt",
  "warnings",
] as const satisfies readonly TrajectoryFilterKey[];
type CellFilter = (typeof CELL_FILTERS)[number];

/**
 * True when the query filters on cell dimensions only (no search, dates, ranges, labels, datasets…), leaving out the
 * filters in `omit` (a facet's own).
 */
export const cellsAnswer = (q: TrajectoryListQuery, scope: FilterScope, omit: readonly (TrajectoryFilterKey | "q")[] = []): boolean =>
  filterConditions(q, scope, [...CELL_FILTERS, ...omit]).length === 0;

const yesNo = (v: "yes" | "no" | undefined, column: string) =>
  v === undefined ? null : sql`c.${Prisma.raw(`"${column}"`)} = ${v === "yes" ? 1 : 0}`;

/**
 * The cell-dimension filters as predicates on alias `c`: the key filters are trajectory-filters.ts's own; the state
 * filters read the cell's flags, which the triggers derive exactly as those filters test the trajectory's columns.
 */
const CELL_SQL: Record<CellFilter, (q: TrajectoryListQuery) => Prisma.Sql | null> = {
  ...keyFilters("c"),
  // "No error found" is the empty category in a cell.
  error: (q) => (q.error.length ? sql`c."errorCategory" IN (${list(q.error.map((e) => (e === NO_ERROR ? "" : e)))})` : null),
  forks: (q) => yesNo(q.forks, "forks"),
  attempt: (q) => yesNo(q.attempt, "attempt"),
  warnings: (q) => yesNo(q.warnings, "warnings"),
};

export function cellConditions(q: TrajectoryListQuery, omit: readonly CellFilter[] = []): Prisma.Sql[] {
  return CELL_FILTERS.filter((k) => !omit.includes(k))
    .map((k) => CELL_SQL[k](q))
    .filter((p) => p !== null);
}

/** The number of trajectories matching `q`, which cellsAnswer must have accepted, as a COUNT(*)-shaped statement. */
export function cellCountSql(q: TrajectoryListQuery): Prisma.Sql {
  return sql`SELECT COALESCE(SUM(c."n"), 0) AS "c" FROM "TrajectoryFacetCell" c${whereClause(cellConditions(q))}`;
}

const num = z.union([z.number(), z.bigint()]).transform(Number);

// A trajectory's cell key, as the triggers derive it (CASE rather than a boolean cast: the same text on both databases).
const flag = (condition: string) => `CASE WHEN ${condition} THEN 1 ELSE 0 END`;
const KEY_OF_T = [
  `t."outcome"`,
  `t."runId"`,
  `t."taskId"`,
  `COALESCE(t."firstErrorCategory", '')`,
  flag(`t."forkPointCount" > 0`),
  flag(`t."parentId" IS NOT NULL`),
  flag(`t."warningCount" > 0`),
  flag(`t."forkPointId" IS NOT NULL`),
  `COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '')`,
];
export const KEY_COLUMNS = [
  "outcome",
  "runId",
  "taskId",
  "errorCategory",
  "forks",
  "attempt",
  "warnings",
  "forkPoint",
  "forkCategory",
] as const;
/** Trajectory `t`'s cell key as TrajectoryFacetCell's key columns, for a select list. */
export const CELL_KEY_OF_T = Prisma.raw(KEY_OF_T.map((k, i) => `${k} AS "${KEY_COLUMNS[i]}"`).join(", "));
/** Trajectory `t` is in cell `alias` (the run, task and outcome first, so an index on them finds the rows). */
const inCell = (alias: string) => Prisma.raw(KEY_OF_T.map((k, i) => `${k} = ${alias}."${KEY_COLUMNS[i]}"`).join(" AND "));

/**
 * A bound of cell `c` for the grouped pass: the stored one, or for a cell marked boundsStale (rows that may have held
 * it left since), computed from the cell's rows, so the facets' ranges stay exact between refreshes. `except` (a
 * condition on Trajectory `t`) leaves rows out of that computation: those a reader counts elsewhere.
 */
export function cellBoundSql(fn: "MIN" | "MAX", trajectoryColumn: string, cellColumn: string, except?: Prisma.Sql): Prisma.Sql {
  const stored = Prisma.raw(`c."${cellColumn}"`);
  const rows = except ? sql`${inCell("c")} AND NOT (${except})` : inCell("c");
  return sql`CASE WHEN c."boundsStale" = 0 THEN ${stored} ELSE (SELECT ${Prisma.raw(`${fn}(t."${trajectoryColumn}")`)} FROM "Trajectory" t WHERE ${rows}) END`;
}

/** Each range bound a cell keeps: its column, the aggregate, and the Trajectory column it bounds. */
export const CELL_BOUNDS = [
  ["rewardMin", "MIN", "reward"],
  ["rewardMax", "MAX", "reward"],
  ["stepsMin", "MIN", "stepCount"],
  ["stepsMax", "MAX", "stepCount"],
  ["durationMin", "MIN", "durationMs"],
  ["durationMax", "MAX", "durationMs"],
  ["errorStepMin", "MIN", "firstErrorStep"],
  ["errorStepMax", "MAX", "firstErrorStep"],
] as const;

/** The stale cells' bounds recomputed in one grouped pass over their rows; `keys` (JSON) narrows it to those cells. */
function refreshSql(keys: string | null): Prisma.Sql {
  const narrow =
    keys === null
      ? Prisma.empty
      : sql` AND (${Prisma.raw(KEY_COLUMNS.map((k) => `x."${k}"`).join(", "))}) IN (SELECT ${Prisma.raw(KEY_COLUMNS.map((k) => `j."${k}"`).join(", "))}
          FROM json_to_recordset(CAST(${keys} AS json)) AS j(${Prisma.raw(KEY_COLUMNS.map((k) => `"${k}" ${k === "forks" || k === "attempt" || k === "warnings" || k === "forkPoint" ? "integer" : "text"}`).join(", "))}))`;
  const aggregates = CELL_BOUNDS.map(([cell, fn, col]) => `${fn}(t."${col}") AS "${cell}"`).join(", ");
  return sql`UPDATE "TrajectoryFacetCell" SET ${Prisma.raw(CELL_BOUNDS.map(([cell]) => `"${cell}" = g."${cell}"`).join(", "))}, "boundsStale" = 0
    FROM (SELECT ${CELL_KEY_OF_T}, ${Prisma.raw(aggregates)} FROM "Trajectory" t
      WHERE (t."outcome", t."runId", t."taskId") IN (SELECT x."outcome", x."runId", x."taskId" FROM "TrajectoryFacetCell" x WHERE x."boundsStale" = 1${narrow})
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9) g
    WHERE ${Prisma.raw(KEY_COLUMNS.map((k) => `"TrajectoryFacetCell"."${k}" = g."${k}"`).join(" AND "))} AND "TrajectoryFacetCell"."boundsStale" = 1`;
}

const staleKeysSchema = z.array(z.object({ keys: z.string().nullable() }));

/**
 * A refresh reads every row of the stale cells: 4 s at 10^6 on a quiet machine (783 cells after a full import), past
 * Prisma's 5 s default under load. It only holds the stale cells' locks, which writers skip or wait for briefly.
 */
const REFRESH_LIMITS = { maxWait: 30_000, timeout: 10 * 60_000 };

/**
 * Make every stale cell's bounds exact again (after an import, whose batches move parents out of their cells).
 * Returns how many cells it refreshed. On PostgreSQL the stale cells are locked first (skipping any a writer holds:
 * those stay stale for the next refresh, and nobody waits), and their rows are read by a second statement, whose
 * snapshot includes every removal committed before the locks were granted.
 */
export async function refreshFacetCellBounds(db: Db): Promise<number> {
  if (dialectOf(db) === "sqlite") return db.$executeRaw(refreshSql(null));
  return db.$transaction(async (tx) => {
    const locked = staleKeysSchema.parse(
      await tx.$queryRaw<unknown[]>`SELECT json_agg(l)::text AS "keys" FROM (
        SELECT ${Prisma.raw(KEY_COLUMNS.map((k) => `x."${k}"`).join(", "))} FROM "TrajectoryFacetCell" x WHERE x."boundsStale" = 1
        ORDER BY ${Prisma.raw(KEY_COLUMNS.map((k) => `x."${k}"`).join(", "))} FOR UPDATE SKIP LOCKED) l`,
    )[0]?.keys;
    return locked ? tx.$executeRaw(refreshSql(locked)) : 0;
  }, REFRESH_LIMITS);
}

/**
 * Attempts per fork-point category (the forkError facet) for a query cellsAnswer accepts without its forkError
 * filter: the cells count attempts under their fork point's detected category; the few fork points an annotator
 * labelled count under the label instead (forkCategorySql's rule), so their matching attempts are moved across.
 * With `keyed` (a search's matching index rows as alias c, which carry the same key columns: search-matches.ts), the
 * matching rows are counted instead of the cells.
 */
export async function forkCategoryCounts(
  read: (query: Prisma.Sql) => Promise<unknown[]>,
  q: TrajectoryListQuery,
  scope: FilterScope,
  keyed: KeyedMatches | null = null,
): Promise<Map<string, number>> {
  const [cells, labelled] = await Promise.all([
    read(sql`SELECT c."forkCategory" AS "k", ${keyed ? sql`COUNT(*)` : sql`SUM(c."n")`} AS "c"
      FROM ${keyed ? keyed.from : sql`"TrajectoryFacetCell" c`}
      ${whereClause([sql`c."forkPoint" = 1`, ...cellConditions(q), ...(keyed?.where ?? [])])} GROUP BY c."forkCategory"`),
    read(sql`SELECT fp."errorCategory" AS "detected", ${labelledForkCategorySql("fp", scope.dialect)} AS "label", COUNT(*) AS "c"
      FROM "Trajectory" t JOIN "ForkPoint" fp ON fp."id" = t."forkPointId"
      ${whereClause([
        sql`t."forkPointId" IN (SELECT la."forkPointId" FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId"
          WHERE la."forkPointId" IS NOT NULL AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`,
        ...filterConditions(q, scope, ["forkError"]),
      ])}
      GROUP BY fp."id", fp."errorCategory"`),
  ]);
  const counts = new Map<string, number>();
  const add = (k: string, n: number) => counts.set(k, (counts.get(k) ?? 0) + n);
  for (const r of z.array(z.object({ k: z.string(), c: num })).parse(cells)) add(r.k || NO_ERROR, r.c);
  for (const r of z.array(z.object({ detected: z.string().nullable(), label: z.string(), c: num })).parse(labelled)) {
    add(r.detected ?? NO_ERROR, -r.c);
    add(r.label, r.c);
  }
  return counts;
}

const countRowSchema = z.array(z.object({ c: num })).length(1);

/**
 * For a query with a forkError filter whose other filters cellsAnswer accepts: how many trajectories match it (the
 * forkError facet's own counts for the chosen categories, so the page's total and the facet agree), and how many
 * match its other filters. Null for any other query.
 */
export async function forkErrorCellCounts(
  read: (query: Prisma.Sql) => Promise<unknown[]>,
  q: TrajectoryListQuery,
  scope: FilterScope,
): Promise<{ matching: number; others: number } | null> {
  if (!q.forkError.length || !cellsAnswer(q, scope, ["forkError"])) return null;
  // cellCountSql reads the cell filters only: forkError is not one.
  const [byCategory, others] = await Promise.all([forkCategoryCounts(read, q, scope), read(cellCountSql(q))]);
  return {
    matching: [...new Set(q.forkError)].reduce((n, k) => n + (byCategory.get(k) ?? 0), 0),
    others: countRowSchema.parse(others)[0]!.c,
  };
}
