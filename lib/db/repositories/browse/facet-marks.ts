// The facets driven from the small tables that mark trajectories: datasets (latest versions' items), "annotated" and
// the error-category labels. With no other filter they count those tables alone. Filtered, each needs the marked
// trajectories' own columns: every marked trajectory is read once, in one statement (`marked`), with a flag per
// facet saying whether it passes that facet's filters (all but the facet's own), and the three facets count from it.
// Reading each facet's join separately looked every annotation up again: at 10^6 with 60,547 annotations and 10,000
// dataset items, ~130,000 random probes of Trajectory's index per facet request, where one pass takes ~37,000.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { labelScopeSql, LATEST_VERSION_SQL, whereClause, type FilterScope } from "./trajectory-filters.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);

export interface MarkFacetFilters {
  /** The conditions on alias `t` each facet counts under (every active filter but its own), or null: not wanted. */
  datasetId: Prisma.Sql[] | null;
  annotated: Prisma.Sql[];
  label: Prisma.Sql[];
}

export interface MarkFacetCounts {
  datasetId: Map<string, number>;
  annotated: { me: number; anyone: number };
  label: Map<string, number>;
}

const FLAG = { datasetId: "fd", annotated: "fa", label: "fl" } as const;
type Facet = keyof typeof FLAG;

const rowsSchema = z.array(z.object({ kind: z.string(), k: z.string().nullable(), c: num }));

export async function findMarkFacetCounts(db: Db, filters: MarkFacetFilters, scope: FilterScope): Promise<MarkFacetCounts> {
  const facets = (Object.keys(FLAG) as Facet[]).filter((f) => filters[f] !== null);
  const filtered = facets.filter((f) => filters[f]!.length > 0);
  // Joined to the marked trajectories only when the facet has conditions; unfiltered, it counts its own table.
  const marked = (f: Facet, alias: string) =>
    filtered.includes(f)
      ? {
          join: sql` JOIN "marked" m ON m."id" = ${Prisma.raw(`${alias}."trajectoryId"`)}`,
          where: [sql`m.${Prisma.raw(`"${FLAG[f]}"`)} = 1`],
        }
      : { join: Prisma.empty, where: [] };
  const parts: Prisma.Sql[] = [];
  if (filters.datasetId) {
    const m = marked("datasetId", "di");
    parts.push(sql`SELECT 'dataset' AS "kind", v."datasetId" AS "k", COUNT(DISTINCT di."trajectoryId") AS "c"
      FROM "DatasetItem" di JOIN "DatasetVersion" v ON v."id" = di."datasetVersionId"${m.join}
      ${whereClause([LATEST_VERSION_SQL, ...m.where])} GROUP BY v."datasetId"`);
  }
  const a = marked("annotated", "a");
  parts.push(
    sql`SELECT 'anyone' AS "kind", NULL AS "k", COUNT(DISTINCT a."trajectoryId") AS "c" FROM "Annotation" a${a.join}${whereClause(a.where)}`,
  );
  parts.push(sql`SELECT 'me' AS "kind", NULL AS "k", COUNT(DISTINCT a."trajectoryId") AS "c" FROM "Annotation" a${a.join}
    ${whereClause([sql`a."annotatorId" = ${scope.actorId}`, ...a.where])}`);
  const l = marked("label", "la");
  parts.push(sql`SELECT 'label' AS "kind", la."value" AS "k", COUNT(DISTINCT la."trajectoryId") AS "c" FROM "Annotation" la${l.join}
    ${whereClause([labelScopeSql(scope), ...l.where])} GROUP BY la."value"`);

  const rows = rowsSchema.parse(
    await db.$queryRaw<unknown[]>`${filtered.length ? markedCte(filters, filtered) : Prisma.empty}${Prisma.join(parts, " UNION ALL ")}`,
  );
  const out: MarkFacetCounts = { datasetId: new Map(), annotated: { me: 0, anyone: 0 }, label: new Map() };
  for (const r of rows) {
    if (r.kind === "dataset") out.datasetId.set(r.k!, r.c);
    else if (r.kind === "label") out.label.set(r.k!, r.c);
    else out.annotated[r.kind as "me" | "anyone"] = r.c;
  }
  return out;
}

/**
 * Every marked trajectory (annotated, or in a dataset's latest version when that facet is wanted) once, in id
 * order, with one flag per filtered facet. Materialized: three parts read it, and inlining it would read the
 * trajectories three times again.
 */
function markedCte(filters: MarkFacetFilters, filtered: Facet[]): Prisma.Sql {
  const ids = [sql`SELECT a."trajectoryId" AS "id" FROM "Annotation" a`];
  if (filters.datasetId)
    ids.push(
      sql`SELECT di."trajectoryId" AS "id" FROM "DatasetItem" di JOIN "DatasetVersion" v ON v."id" = di."datasetVersionId" WHERE ${LATEST_VERSION_SQL}`,
    );
  const flags = filtered.map((f) => sql`CASE WHEN ${Prisma.join(filters[f]!, " AND ")} THEN 1 ELSE 0 END AS ${Prisma.raw(`"${FLAG[f]}"`)}`);
  return sql`WITH "marked" AS MATERIALIZED (SELECT t."id" AS "id", ${Prisma.join(flags)}
    FROM (${Prisma.join(ids, " UNION ")}) ids JOIN "Trajectory" t ON t."id" = ids."id") `;
}
