// The error category a fork point is counted under: the labelled one where an annotator gave one (schema
// `error-category` on the fork point), else the category the detector or the source attached to it. With several
// annotators and no adjudication yet the alphabetically first label is used, so the figure is deterministic.
// The trajectory browser's `forkError` filter and facet follow this same rule, so a drill-down matches exactly.
// The label is a correlated lookup per fork point through the Annotation(forkPointId) index: a grouped
// derived table of all labels was slower, as SQLite then scans it once per fork point.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Dialect } from "../../dialect.ts";

const sql = Prisma.sql;
export const ERROR_CATEGORY_SCHEMA_KEY = "error-category";

/** Annotation as alias la, read by fork point (on SQLite through its index, named: see labelledForkCategorySql). */
function labelsByForkPoint(dialect: Dialect): Prisma.Sql {
  return dialect === "sqlite" ? sql`"Annotation" la INDEXED BY "Annotation_forkPointId_idx"` : sql`"Annotation" la`;
}

/**
 * The labelled category of fork point alias `f` (NULL when unlabelled). On SQLite the lookup names its index: when
 * few labels are on fork points, ANALYZE sees one forkPointId value (NULL) in nearly every row and SQLite then
 * judged the index useless and scanned every error-category label once per fork point (26 s for the browser's
 * fork-category facet at 10^5 trajectories whose labels are on trajectories). PostgreSQL's statistics count NULLs
 * apart, so it needs no hint.
 */
export function labelledForkCategorySql(f: string, dialect: Dialect): Prisma.Sql {
  return sql`(SELECT MIN(la."value") FROM ${labelsByForkPoint(dialect)} JOIN "LabelSchema" ls ON ls."id" = la."schemaId" WHERE la."forkPointId" = ${Prisma.raw(`"${f}"`)}."id" AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`;
}

/** Labelled category, else detected, of fork point alias `f` (NULL when it has neither). */
export function forkCategorySql(f: string, dialect: Dialect): Prisma.Sql {
  return sql`COALESCE(${labelledForkCategorySql(f, dialect)}, ${Prisma.raw(`"${f}"`)}."errorCategory")`;
}

/**
 * The ids of the fork points whose category (forkCategorySql's rule) is one of `named`, or none at all with
 * `uncategorized`. As two sets rather than the expression tested per fork point: the fork points with a matching
 * detected category and no label, found by their own column, and the labelled ones grouped from the (few) labels.
 * Tested per fork point, the expression hides its selectivity from the planner, which then read all of Trajectory
 * against it (the browser's facets under its commonest category at 10^6 on PostgreSQL: 3.8 s that way, 2.3 s this).
 */
export function forkPointsInCategoriesSql(named: readonly string[], uncategorized: boolean, dialect: Dialect): Prisma.Sql {
  const detected = [
    named.length ? sql`fe."errorCategory" IN (${Prisma.join(named)})` : null,
    uncategorized ? sql`fe."errorCategory" IS NULL` : null,
  ].filter((p) => p !== null);
  // NOT EXISTS rather than "its label IS NULL": an anti-join, which PostgreSQL estimates from the labels' statistics,
  // where it guessed a handful of rows for the test of a subquery's result and planned every pass around that.
  const unlabelled = sql`SELECT fe."id" FROM "ForkPoint" fe WHERE (${Prisma.join(detected, " OR ")}) AND NOT EXISTS (SELECT 1 FROM ${labelsByForkPoint(dialect)}
    JOIN "LabelSchema" ls ON ls."id" = la."schemaId" WHERE la."forkPointId" = fe."id" AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`;
  if (!named.length) return unlabelled;
  return sql`${unlabelled} UNION ALL SELECT la."forkPointId" FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId"
    WHERE la."forkPointId" IS NOT NULL AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY} GROUP BY la."forkPointId" HAVING MIN(la."value") IN (${Prisma.join(named)})`;
}
