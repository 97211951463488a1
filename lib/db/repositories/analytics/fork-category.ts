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

/** The fork points an annotator gave an error category, as rows (id, v: the label, by the same MIN rule). */
export function forkLabelsSql(): Prisma.Sql {
  return sql`SELECT la."forkPointId" AS "id", MIN(la."value") AS "v" FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId"
    WHERE la."forkPointId" IS NOT NULL AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY} GROUP BY la."forkPointId"`;
}

/** Labelled category, else detected, of fork point alias `f` (NULL when it has neither). */
export function forkCategorySql(f: string, dialect: Dialect): Prisma.Sql {
  return sql`COALESCE(${labelledForkCategorySql(f, dialect)}, ${Prisma.raw(`"${f}"`)}."errorCategory")`;
}

/**
 * How the browser's forkError filter tests a trajectory's fork point. "set": against the matching fork points read
 * first as one set (the planner then reads their attempts by index: right for a category with few attempts, and for
 * anything that visits every match anyway, like counts and facets). "walk": each trajectory in list order against the
 * two sets built once as hashes (right for a page of a category with many attempts: the walk stops after a page,
 * where the set form reads and sorts every attempt; 185,602 of them for the commonest category at 10^6).
 */
export type ForkCategoryForm = "set" | "walk";

/**
 * Trajectory fork point `id` has a category (forkCategorySql's rule) among `named`, or none at all with
 * `uncategorized`. Two sets rather than the expression tested per fork point: the fork points with a matching
 * detected category and no label, found by their own column, and the labelled ones grouped from the (few) labels.
 * Tested per fork point, the expression hides its selectivity from the planner, which then read all of Trajectory
 * against it (the browser's facets under its commonest category at 10^6 on PostgreSQL: 3.8 s that way, 2.3 s this).
 */
export function forkCategoryFilterSql(
  id: Prisma.Sql,
  named: readonly string[],
  uncategorized: boolean,
  dialect: Dialect,
  form: ForkCategoryForm = "set",
): Prisma.Sql {
  const detected = [
    named.length ? sql`fe."errorCategory" IN (${Prisma.join(named)})` : null,
    uncategorized ? sql`fe."errorCategory" IS NULL` : null,
  ].filter((p) => p !== null);
  // NOT EXISTS rather than "its label IS NULL": an anti-join, which PostgreSQL estimates from the labels' statistics,
  // where it guessed a handful of rows for the test of a subquery's result and planned every pass around that.
  const unlabelled = sql`SELECT fe."id" FROM "ForkPoint" fe WHERE (${Prisma.join(detected, " OR ")}) AND NOT EXISTS (SELECT 1 FROM ${labelsByForkPoint(dialect)}
    JOIN "LabelSchema" ls ON ls."id" = la."schemaId" WHERE la."forkPointId" = fe."id" AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`;
  if (!named.length) return sql`${id} IN (${unlabelled})`;
  const labelled = sql`SELECT la."forkPointId" FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId"
    WHERE la."forkPointId" IS NOT NULL AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY} GROUP BY la."forkPointId" HAVING MIN(la."value") IN (${Prisma.join(named)})`;
  // ORed, neither IN becomes a join: each is a set hashed once and probed per row, so the planner may walk an index.
  return form === "walk" ? sql`(${id} IN (${unlabelled}) OR ${id} IN (${labelled}))` : sql`${id} IN (${unlabelled} UNION ALL ${labelled})`;
}
