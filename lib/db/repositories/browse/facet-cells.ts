// TrajectoryFacetCell as a source for counts: one row per (outcome, run, task, first error category, forks, attempt,
// warnings) with its count and range bounds, kept exact by triggers on Trajectory (see the facet_cells migration).
// When every active filter is one of those dimensions, a count or the facets' grouped pass sums a few thousand
// cells instead of reading every trajectory (at 10^6 on PostgreSQL, a COUNT(*) alone is ~100 ms, the grouped pass 1-2 s).
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { dialectOf } from "../../dialect.ts";
import { ERROR_CATEGORY_SCHEMA_KEY, labelledForkCategorySql } from "../analytics/fork-category.ts";
import { filterConditions, list, whereClause, type FilterScope } from "./trajectory-filters.ts";
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
export const cellsAnswer = (q: TrajectoryListQuery, scope: FilterScope, omit: readonly TrajectoryFilterKey[] = []): boolean =>
  filterConditions(q, scope, [...CELL_FILTERS, ...omit]).length === 0;

const yesNo = (v: "yes" | "no" | undefined, column: string) =>
  v === undefined ? null : sql`c.${Prisma.raw(`"${column}"`)} = ${v === "yes" ? 1 : 0}`;

/** The cell-dimension filters as predicates on alias `c` (the same meaning as trajectory-filters.ts on `t`). */
const CELL_SQL: Record<CellFilter, (q: TrajectoryListQuery) => Prisma.Sql | null> = {
  runId: (q) => (q.runId.length ? sql`c."runId" IN (${list(q.runId)})` : null),
  model: (q) => (q.model.length ? sql`c."runId" IN (SELECT r2."id" FROM "Run" r2 WHERE r2."model" IN (${list(q.model)}))` : null),
  taskId: (q) => (q.taskId.length ? sql`c."taskId" IN (${list(q.taskId)})` : null),
  category: (q) =>
    q.category.length ? sql`c."taskId" IN (SELECT k2."id" FROM "Task" k2 WHERE k2."category" IN (${list(q.category)}))` : null,
  outcome: (q) => (q.outcome.length ? sql`c."outcome" IN (${list(q.outcome)})` : null),
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

/**
 * Attempts per fork-point category (the forkError facet) for a query cellsAnswer accepts without its forkError
 * filter: the cells count attempts under their fork point's detected category; the few fork points an annotator
 * labelled count under the label instead (forkCategorySql's rule), so their matching attempts are moved across.
 */
export async function forkCategoryCounts(db: Db, q: TrajectoryListQuery, scope: FilterScope): Promise<Map<string, number>> {
  const [cells, labelled] = await Promise.all([
    db.$queryRaw<unknown[]>`SELECT c."forkCategory" AS "k", SUM(c."n") AS "c" FROM "TrajectoryFacetCell" c
      ${whereClause([sql`c."forkPoint" = 1`, ...cellConditions(q)])} GROUP BY c."forkCategory"`,
    db.$queryRaw<
      unknown[]
    >`SELECT fp."errorCategory" AS "detected", ${labelledForkCategorySql("fp", dialectOf(db))} AS "label", COUNT(*) AS "c"
      FROM "Trajectory" t JOIN "ForkPoint" fp ON fp."id" = t."forkPointId"
      ${whereClause([
        sql`t."forkPointId" IN (SELECT la."forkPointId" FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId"
          WHERE la."forkPointId" IS NOT NULL AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`,
        ...filterConditions(q, scope, ["forkError"]),
      ])}
      GROUP BY fp."id", fp."errorCategory"`,
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
