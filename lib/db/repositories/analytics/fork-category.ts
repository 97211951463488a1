// The error category a fork point is counted under: the labelled one where an annotator gave one (schema
// `error-category` on the fork point), else the category the detector or the source attached to it. With several
// annotators and no adjudication yet the alphabetically first label is used, so the figure is deterministic.
// The trajectory browser's `forkError` filter and facet use these same fragments, so a drill-down matches exactly.
// Labels are pre-aggregated once per query (a derived table joined on the fork point) rather than looked up per
// fork point: the Annotation table has no index on forkPointId, and one grouped pass is cheaper on both databases.
import { Prisma } from "../../generated/sqlite/client.ts";

const sql = Prisma.sql;
export const ERROR_CATEGORY_SCHEMA_KEY = "error-category";

/** Derived table (forkPointId, label): the labelled category of every labelled fork point. Alias it in FROM. */
export const FORK_LABELS_SQL = sql`(SELECT la."forkPointId" AS "forkPointId", MIN(la."value") AS "label" FROM "Annotation" la
  JOIN "LabelSchema" ls ON ls."id" = la."schemaId" WHERE ls."key" = ${ERROR_CATEGORY_SCHEMA_KEY} AND la."forkPointId" IS NOT NULL GROUP BY la."forkPointId")`;

/** `LEFT JOIN <labels> <lab> ON <lab>.forkPointId = <f>.id` — puts the label of fork point alias `f` in `lab`.label. */
export function joinForkLabels(f: string, lab: string): Prisma.Sql {
  return sql` LEFT JOIN ${FORK_LABELS_SQL} ${Prisma.raw(`"${lab}"`)} ON ${Prisma.raw(`"${lab}"`)}."forkPointId" = ${Prisma.raw(`"${f}"`)}."id"`;
}

/** Labelled category, else detected, given fork point alias `f` joined to labels alias `lab` (NULL when neither). */
export function forkCategorySql(f: string, lab: string): Prisma.Sql {
  return sql`COALESCE(${Prisma.raw(`"${lab}"`)}."label", ${Prisma.raw(`"${f}"`)}."errorCategory")`;
}
