// Recovery figures per error category, computed in the database. One pass groups attempts by fork point (n attempts
// with a known outcome, c passed, first passing attempt), then groups fork points by (category, n, c): the result has
// one row per distinct (category, n, c), a few hundred at most, from which recovery@k follows exactly.
import { z } from "zod";

import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { labelledForkCategorySql } from "./fork-category.ts";
import { scopeSql } from "./scope.ts";

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
  z.object({ cat: z.string().nullable(), n: num, c: num, fps: num, attempts: num, labelled: num, firstSum: num.nullable(), firstCount: num }),
);

/**
 * A fork point counts when one of its attempts matches the filter, or — so fork points nobody has attempted yet
 * show up with zero attempts — when its parent rollout does. Only matching attempts are counted.
 */
export async function findRecoveryCells(db: Db, f: AnalyticsFilter): Promise<RecoveryCell[]> {
  const rows = await db.$queryRaw<unknown[]>`
    WITH per AS (
      SELECT fp."id", fp."label", COALESCE(fp."label", fp."errorCategory") AS "cat",
        CASE WHEN fp."label" IS NULL THEN 0 ELSE 1 END AS "labelled",
        COUNT(t."id") AS "attempts",
        SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS "n",
        SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS "c",
        MIN(CASE WHEN t."outcome" = 'passed' THEN t."attemptIndex" END) AS "first"
      FROM (SELECT f."id", f."trajectoryId", f."errorCategory", ${labelledForkCategorySql("f")} AS "label" FROM "ForkPoint" f) fp
      JOIN "Trajectory" p ON p."id" = fp."trajectoryId"
      LEFT JOIN "Trajectory" t ON t."forkPointId" = fp."id" AND ${scopeSql(f, "t")}
      GROUP BY fp."id", fp."errorCategory", fp."label"
      HAVING COUNT(t."id") > 0 OR MAX(CASE WHEN ${scopeSql(f, "p")} THEN 1 ELSE 0 END) = 1
    )
    SELECT "cat", CAST(COALESCE("n", 0) AS INTEGER) AS "n", CAST(COALESCE("c", 0) AS INTEGER) AS "c", CAST(COUNT(*) AS INTEGER) AS "fps",
      CAST(SUM("attempts") AS INTEGER) AS "attempts", CAST(SUM("labelled") AS INTEGER) AS "labelled",
      CAST(SUM("first" + 1) AS INTEGER) AS "firstSum", CAST(COUNT("first") AS INTEGER) AS "firstCount"
    FROM per GROUP BY "cat", COALESCE("n", 0), COALESCE("c", 0)`;
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
