// Which signatures a failure-mode figure is computed over: the analytics filter (run, model, checkpoint, training
// method, task category) plus tasks and an import-date range, all on FailureSignature's own copies of the
// trajectory's run, task and import time, so no query joins the Trajectory table to filter.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { FailureModeFilter } from "../../../validation/failure-modes-params.ts";
import { scopeConditions } from "../analytics/scope.ts";
import type { Dialect } from "../../dialect.ts";

const sql = Prisma.sql;

/** A day bound as each database stores DateTime (ISO text with an offset on SQLite, timestamp(3) on PostgreSQL). */
function dateSql(dialect: Dialect, d: Date): Prisma.Sql {
  return dialect === "sqlite" ? sql`${d.toISOString().replace("Z", "+00:00")}` : sql`CAST(${d.toISOString()} AS TIMESTAMP(3))`;
}

/**
 * Predicates on alias `alias`: a FailureSignature, or a Trajectory (same column names), for the filter; on a
 * FailureModeRollup the import date is its `day` (a day's start, and the bounds are days' starts, so it is exact).
 */
export function signatureConditions(
  f: FailureModeFilter,
  alias: string,
  dialect: Dialect,
  dateColumn: "importedAt" | "day" = "importedAt",
): Prisma.Sql[] {
  const a = Prisma.raw(`"${alias}"`);
  const out = scopeConditions(f, alias);
  if (f.taskId.length) out.push(sql`${a}."taskId" IN (${Prisma.join(f.taskId.map((v) => sql`${v}`))})`);
  const date = Prisma.raw(`"${dateColumn}"`);
  if (f.from) out.push(sql`${a}.${date} >= ${dateSql(dialect, f.from)}`);
  if (f.to) out.push(sql`${a}.${date} < ${dateSql(dialect, f.to)}`);
  return out;
}

export function conditionSql(parts: Prisma.Sql[]): Prisma.Sql {
  return parts.length ? sql`(${Prisma.join(parts, " AND ")})` : sql`1 = 1`;
}
