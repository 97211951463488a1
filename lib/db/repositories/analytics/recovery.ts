// Recovery figures per error category, computed in the database. One pass groups attempts by fork point (n attempts
// with a known outcome, c passed, first passing attempt), then groups fork points by (category, n, c): the result has
// one row per distinct (category, n, c), a few hundred at most, from which recovery@k follows exactly.
import { z } from "zod";

import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { labelledForkCategorySql } from "./fork-category.ts";
import { dialectOf } from "../../dialect.ts";
import { scopeConditions, scopeSql } from "./scope.ts";
import { withPlainPlan } from "./serial.ts";

const sql = Prisma.sql;

const num = z.union([z.number(), z.bigint()]).transform(Number);

/** Fork points sharing a category and the same (n, c). */
export interface RecoveryCell {
  category: string | null;
  /** Attempts with a known outcome (passed or failed) per fork point. */
  n: number;
  /** Passed attempts per fork point. */
  c: number;
  forkPoints: number;
  /** All attempts, unknown outcomes included. */
  attempts: number;
  /** Fork points whose category comes from a label rather than the detector. */
  labelledForkPoints: number;
  /** Sum and count of "attempts until the first success" (1-based) over fork points with a passing attempt. */
  firstSuccessSum: number;
  firstSuccessCount: number;
}

const cellSchema = z.array(
  z.object({
    cat: z.string().nullable(),
    n: num,
    c: num,
    fps: num,
    attempts: num,
    labelled: num,
    firstSum: num.nullable(),
    firstCount: num,
  }),
);

/**
 * A fork point counts when one of its attempts matches the filter, or — so fork points nobody has attempted yet
 * show up with zero attempts — when its parent rollout does. Only matching attempts are counted.
 */
export async function findRecoveryCells(db: Db, f: AnalyticsFilter): Promise<RecoveryCell[]> {
  // Attempts are aggregated per fork point first (one pass over the forkPointId index), then each fork point gets
  // its category once — a label lookup per fork point, not per attempt. `per` is materialized: inlined, its label
  // lookup would run once for each place the outer query names "label" (SQLite's plan showed it twice).
  const parentScope = scopeConditions(f, "p");
  const rows = await withPlainPlan(
    db,
    (q) => q.$queryRaw<unknown[]>`
    WITH agg AS (
      SELECT t."forkPointId" AS "id", COUNT(*) AS "attempts",
        SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS "n",
        SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS "c",
        MIN(CASE WHEN t."outcome" = 'passed' THEN t."attemptIndex" END) AS "first"
      FROM "Trajectory" t WHERE t."forkPointId" IS NOT NULL AND ${scopeSql(f, "t")}
      GROUP BY t."forkPointId"
    ), per AS MATERIALIZED (
      SELECT ${labelledForkCategorySql("fp", dialectOf(db))} AS "label", fp."errorCategory", COALESCE(agg."attempts", 0) AS "attempts",
        COALESCE(agg."n", 0) AS "n", COALESCE(agg."c", 0) AS "c", agg."first"
      FROM "ForkPoint" fp LEFT JOIN agg ON agg."id" = fp."id"
      WHERE agg."id" IS NOT NULL${parentScope.length ? sql` OR fp."trajectoryId" IN (SELECT p."id" FROM "Trajectory" p WHERE ${Prisma.join(parentScope, " AND ")})` : sql` OR 1 = 1`}
    )
    SELECT COALESCE("label", "errorCategory") AS "cat", CAST("n" AS INTEGER) AS "n", CAST("c" AS INTEGER) AS "c", CAST(COUNT(*) AS INTEGER) AS "fps",
      CAST(SUM("attempts") AS INTEGER) AS "attempts", CAST(SUM(CASE WHEN "label" IS NULL THEN 0 ELSE 1 END) AS INTEGER) AS "labelled",
      CAST(SUM("first" + 1) AS INTEGER) AS "firstSum", CAST(COUNT("first") AS INTEGER) AS "firstCount"
    FROM per GROUP BY COALESCE("label", "errorCategory"), "n", "c"`,
  );
  return cellSchema.parse(rows).map((r) => ({
    category: r.cat,
    n: r.n,
    c: r.c,
    forkPoints: r.fps,
    attempts: r.attempts,
    labelledForkPoints: r.labelled,
    firstSuccessSum: r.firstSum ?? 0,
    firstSuccessCount: r.firstCount,
  }));
}
