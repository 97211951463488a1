// The error category a fork point is counted under: the labelled one where an annotator gave one (schema
// `error-category` on the fork point), else the category the detector or the source attached to it. With several
// annotators and no adjudication yet the alphabetically first label is used, so the figure is deterministic.
// The trajectory browser's `forkError` filter and facet use this same expression, so a drill-down matches exactly.
// The label is a correlated lookup per fork point through the Annotation(forkPointId) index (issue 11): a grouped
// derived table of all labels was slower, as SQLite then scans it once per fork point.
import { Prisma } from "../../generated/sqlite/client.ts";

const sql = Prisma.sql;
export const ERROR_CATEGORY_SCHEMA_KEY = "error-category";

/** The labelled category of fork point alias `f` (NULL when unlabelled). */
export function labelledForkCategorySql(f: string): Prisma.Sql {
  return sql`(SELECT MIN(la."value") FROM "Annotation" la JOIN "LabelSchema" ls ON ls."id" = la."schemaId" WHERE la."forkPointId" = ${Prisma.raw(`"${f}"`)}."id" AND ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY})`;
}

/** Labelled category, else detected, of fork point alias `f` (NULL when it has neither). */
export function forkCategorySql(f: string): Prisma.Sql {
  return sql`COALESCE(${labelledForkCategorySql(f)}, ${Prisma.raw(`"${f}"`)}."errorCategory")`;
}
