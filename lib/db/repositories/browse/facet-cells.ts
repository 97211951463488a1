// TrajectoryFacetCell as a source for counts: one row per (outcome, run, task, first error category, forks, attempt,
// warnings) with its count and range bounds, kept exact by triggers on Trajectory (see the facet_cells migration).
// When every active filter is one of those dimensions, a count or the facets' grouped pass sums a few thousand
// cells instead of reading every trajectory (at 10^6 on PostgreSQL, a COUNT(*) alone is ~100 ms, the grouped pass 1-2 s).
import { Prisma } from "../../generated/sqlite/client.ts";
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

/** True when the query filters on cell dimensions only (no search, dates, ranges, labels, datasets…). */
export const cellsAnswer = (q: TrajectoryListQuery, scope: FilterScope): boolean => filterConditions(q, scope, CELL_FILTERS).length === 0;

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
