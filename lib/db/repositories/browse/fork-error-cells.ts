// TrajectoryFacetCell under a forkError filter: the cells of the attempts whose fork point's category (forkCategorySql's
// rule) is among the chosen ones, as a table shaped like TrajectoryFacetCell, so the facets' grouped pass sums a few
// thousand cells instead of reading every chosen attempt (185,602 for the commonest category at 10^6: ~2 s).
// A cell keys its attempts by their fork point's detected category, where the rule counts a labelled fork point under
// its label. So the cells of the chosen detected categories are read, and the attempts of the (few) labelled fork
// points whose label and detected category fall on different sides of the choice are moved across as rows of their
// own: n = -1 for those labelled out of the choice, n = 1 (with their own values as bounds) for those labelled in.
// A stored bound cannot lose rows, so a cell holding an attempt labelled out is read as stale: its bounds come from
// its rows, those attempts left out (cellBoundSql), as the bounds of cells that rows have left are read between refreshes.
import { Prisma } from "../../generated/sqlite/client.ts";
import { forkLabelsSql } from "../analytics/fork-category.ts";
import { CELL_BOUNDS, CELL_KEY_OF_T, KEY_COLUMNS } from "./facet-cells.ts";
import { NO_ERROR } from "../../../validation/search-params/index.ts";

const sql = Prisma.sql;

export interface ForkErrorCells {
  /** The WITH clause the other two parts read ("forkMoved": the labelled fork points moved across, d = ±1). */
  with: Prisma.Sql;
  /** A derived table with TrajectoryFacetCell's columns (key, n, boundsStale, bounds). */
  cells: Prisma.Sql;
  /** The attempts moved out, a condition on Trajectory t: left out of a stale cell's bounds. */
  movedOut: Prisma.Sql;
}

/** 1 when `expr` is among `values`, else 0 (never NULL, so two of them compare). */
const oneIfIn = (expr: Prisma.Sql, values: readonly string[]) =>
  values.length ? sql`CASE WHEN ${expr} IN (${Prisma.join(values)}) THEN 1 ELSE 0 END` : sql`0`;

const column = (alias: string, name: string) => Prisma.raw(`${alias}."${name}"`);

/**
 * A choice of fork-point categories as the labels name them (NO_ERROR left out: a label always names one) and as a
 * cell or marked trajectory stores the detected one ('' for a fork point without a category).
 */
function categoriesOf(chosen: readonly string[]): { named: string[]; detected: string[] } {
  const named = chosen.filter((c) => c !== NO_ERROR);
  return { named, detected: chosen.includes(NO_ERROR) ? [...named, ""] : named };
}

/** The cells of the attempts under fork-point categories `chosen`, at least one (NO_ERROR: fork points with no category). */
export function forkErrorCellsSql(chosen: readonly string[]): ForkErrorCells {
  const { named, detected } = categoriesOf(chosen);
  const withClause = sql`WITH "forkLabel" AS (${forkLabelsSql()}),
    "forkMoved" AS (
      SELECT l."id", CASE WHEN ${oneIfIn(sql`l."v"`, named)} = 1 THEN 1 ELSE -1 END AS "d"
      FROM "forkLabel" l JOIN "ForkPoint" fp ON fp."id" = l."id"
      WHERE ${oneIfIn(sql`l."v"`, named)} <> ${oneIfIn(sql`COALESCE(fp."errorCategory", '')`, detected)})`;
  const movedOut = sql`t."forkPointId" IN (SELECT m."id" FROM "forkMoved" m WHERE m."d" = -1)`;
  const key = (alias: string) => Prisma.join(KEY_COLUMNS.map((k) => column(alias, k)));
  const sameKey = Prisma.join(
    KEY_COLUMNS.map((k) => sql`${column("o", k)} = ${column("c", k)}`),
    " AND ",
  );
  const storedBounds = Prisma.join(CELL_BOUNDS.map(([cell]) => column("c", cell)));
  // A moved attempt's own value bounds its row when it is moved in; moved out, its row bounds nothing.
  const movedBounds = Prisma.join(
    CELL_BOUNDS.map(([cell, , col]) => sql`CASE WHEN m."d" = 1 THEN ${column("t", col)} END AS ${Prisma.raw(`"${cell}"`)}`),
  );
  return {
    with: withClause,
    cells: sql`SELECT ${key("c")}, c."n", CASE WHEN c."boundsStale" = 1 OR o."outcome" IS NOT NULL THEN 1 ELSE 0 END AS "boundsStale", ${storedBounds}
        FROM "TrajectoryFacetCell" c LEFT JOIN (SELECT DISTINCT ${CELL_KEY_OF_T} FROM "Trajectory" t WHERE ${movedOut}) o ON ${sameKey}
        WHERE c."forkPoint" = 1 AND c."forkCategory" IN (${Prisma.join(detected)})
      UNION ALL
      SELECT ${CELL_KEY_OF_T}, m."d" AS "n", 0 AS "boundsStale", ${movedBounds}
      FROM "Trajectory" t JOIN "forkMoved" m ON m."id" = t."forkPointId"`,
    movedOut,
  };
}

/**
 * The forkError filter on MarkedTrajectory alias c, which keeps each marked trajectory's fork point and its detected
 * category: an unlabelled fork point by that category, a labelled one by its label (the labelled fork points read from
 * the labels, a few). Cheaper than forkCategoryFilterSql's set of every fork point in the categories, which scans
 * ForkPoint (11,000 pages at 10^6) once per facet statement.
 */
export function markForkErrorSql(chosen: readonly string[]): Prisma.Sql {
  const { named, detected } = categoriesOf(chosen);
  const unlabelled = sql`c."forkPointId" IS NOT NULL AND c."forkCategory" IN (${Prisma.join(detected)})
    AND c."forkPointId" NOT IN (SELECT l."id" FROM (${forkLabelsSql()}) l)`;
  if (!named.length) return sql`(${unlabelled})`;
  return sql`(${unlabelled} OR c."forkPointId" IN (SELECT l."id" FROM (${forkLabelsSql()}) l WHERE l."v" IN (${Prisma.join(named)})))`;
}
