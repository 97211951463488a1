// SQL predicates for an analytics filter, on any trajectory alias. Run-level filters (run, model, checkpoint,
// training method) and the task category are subqueries on the small Run and Task tables, so the planner starts
// from the trajectory indexes (runId, taskId) on both databases.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";

const sql = Prisma.sql;
const list = (values: readonly string[]) => Prisma.join(values.map((v) => sql`${v}`));

/** Predicates (ANDed) restricting trajectory alias `t` to the filter; empty when nothing is filtered. */
export function scopeConditions(f: AnalyticsFilter, t: string): Prisma.Sql[] {
  const a = Prisma.raw(`"${t}"`);
  const out: Prisma.Sql[] = [];
  if (f.runId.length) out.push(sql`${a}."runId" IN (${list(f.runId)})`);
  const runParts: Prisma.Sql[] = [];
  if (f.model.length) runParts.push(sql`rs."model" IN (${list(f.model)})`);
  if (f.checkpoint.length) runParts.push(sql`rs."checkpoint" IN (${list(f.checkpoint)})`);
  if (f.method.length) runParts.push(sql`rs."trainingMethod" IN (${list(f.method)})`);
  if (runParts.length) out.push(sql`${a}."runId" IN (SELECT rs."id" FROM "Run" rs WHERE ${Prisma.join(runParts, " AND ")})`);
  if (f.category.length) out.push(sql`${a}."taskId" IN (SELECT ks."id" FROM "Task" ks WHERE ks."category" IN (${list(f.category)}))`);
  return out;
}

/** The filter as one predicate on alias `t` (TRUE when nothing is filtered). */
export function scopeSql(f: AnalyticsFilter, t: string): Prisma.Sql {
  const parts = scopeConditions(f, t);
  return parts.length ? sql`(${Prisma.join(parts, " AND ")})` : sql`1 = 1`;
}

export function whereSql(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length ? sql` WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}
