// Distributions for the analytics page, grouped in the database: each histogram is two aggregate queries — the
// range (MIN/MAX), then one GROUP BY over buckets whose edges come from lib/domain/analytics/buckets.ts. Bucket
// numbers are computed in a derived table and grouped by alias, so PostgreSQL never compares two parameterised
// expressions for GROUP BY equality.
import { z } from "zod";

import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { integerBuckets, realBuckets, type Bucket } from "../../../domain/analytics/buckets.ts";
import type { Queryable } from "../../dialect.ts";
import { scopeSql } from "./scope.ts";
import { withPlainPlan } from "./serial.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);
const numOrNull = num.nullable();
const countsSchema = z.array(z.object({ b: num, a: num, c: num }));

/** One bucket with two counts (what the two counts are depends on the histogram). */
export interface BucketCount extends Bucket {
  a: number;
  b: number;
}

/** Bucket index of `x` (bucket i holds x < edge of bucket i+1; the last takes the rest). */
function bucketCase(x: Prisma.Sql, buckets: readonly Bucket[], integer: boolean): Prisma.Sql {
  // Edges and indexes are numbers computed here, inlined as literals so both databases type the result as a number.
  const lit = (v: number) => Prisma.raw(String(v));
  if (buckets.length <= 1) return sql`0`;
  const whens = buckets.slice(0, -1).map((bk, i) => sql`WHEN ${x} ${Prisma.raw(integer ? "<=" : "<")} ${lit(bk.hi)} THEN ${lit(i)}`);
  return sql`CASE ${Prisma.join(whens, " ")} ELSE ${lit(buckets.length - 1)} END`;
}

function fill(buckets: readonly Bucket[], rows: z.infer<typeof countsSchema>): BucketCount[] {
  const by = new Map(rows.map((r) => [r.b, r]));
  return buckets.map((bk, i) => ({ ...bk, a: by.get(i)?.a ?? 0, b: by.get(i)?.c ?? 0 }));
}

const trajRangeSchema = z.array(z.object({ lo: numOrNull, hi: numOrNull, elo: numOrNull, ehi: numOrNull, none: numOrNull })).length(1);
const cellSchema = z.array(z.object({ l: num, e: num, r: num, a: num }));

/**
 * Trajectories in scope by step count and by first-error step, in one scan: each bucket counts original rollouts
 * (`a`) and recovery attempts (`b`, parentId set, as the browser's `attempt` filter). The database returns one row per
 * (length bucket, error bucket) with both counts — a few hundred at most — which are summed here. `withoutError` counts
 * trajectories with no first-error step.
 */
export async function findTrajectoryHistograms(
  db: Db,
  f: AnalyticsFilter,
): Promise<{ length: BucketCount[]; firstError: BucketCount[]; withoutError: number }> {
  return withPlainPlan(db, (q) => trajectoryHistograms(q, f));
}

async function trajectoryHistograms(
  db: Queryable,
  f: AnalyticsFilter,
): Promise<{ length: BucketCount[]; firstError: BucketCount[]; withoutError: number }> {
  const scope = scopeSql(f, "t");
  const [r] = trajRangeSchema.parse(
    await db.$queryRaw<
      unknown[]
    >`SELECT MIN(t."stepCount") AS "lo", MAX(t."stepCount") AS "hi", MIN(t."firstErrorStep") AS "elo", MAX(t."firstErrorStep") AS "ehi",
      CAST(SUM(CASE WHEN t."firstErrorStep" IS NULL THEN 1 ELSE 0 END) AS INTEGER) AS "none" FROM "Trajectory" t WHERE ${scope}`,
  );
  if (r!.lo === null || r!.hi === null) return { length: [], firstError: [], withoutError: 0 };
  const lengthBuckets = integerBuckets(r!.lo, r!.hi);
  const errorBuckets = r!.elo === null || r!.ehi === null ? [] : integerBuckets(r!.elo, r!.ehi);
  // Trajectories are first grouped by their (stepCount, firstErrorStep) values — in the order of
  // Trajectory_lengths_idx, so without sorting 10^5 rows — and only those groups are put into buckets.
  const fe = sql`v."fe"`;
  const rows = cellSchema.parse(
    await db.$queryRaw<unknown[]>`
    SELECT x."l" AS "l", x."e" AS "e", CAST(SUM(x."r") AS INTEGER) AS "r", CAST(SUM(x."a") AS INTEGER) AS "a"
    FROM (SELECT ${bucketCase(sql`v."sc"`, lengthBuckets, true)} AS "l",
            CASE WHEN ${fe} IS NULL THEN -1 ELSE ${bucketCase(fe, errorBuckets, true)} END AS "e", v."r" AS "r", v."a" AS "a"
          FROM (SELECT t."stepCount" AS "sc", t."firstErrorStep" AS "fe",
                  SUM(CASE WHEN t."parentId" IS NULL THEN 1 ELSE 0 END) AS "r", SUM(CASE WHEN t."parentId" IS NULL THEN 0 ELSE 1 END) AS "a"
                FROM "Trajectory" t WHERE ${scope} GROUP BY t."stepCount", t."firstErrorStep") v) x
    GROUP BY x."l", x."e"`,
  );
  const sum = (buckets: Bucket[], key: "l" | "e") =>
    buckets.map((bk, i) => {
      const inBucket = rows.filter((x) => x[key] === i);
      return { ...bk, a: inBucket.reduce((s, x) => s + x.r, 0), b: inBucket.reduce((s, x) => s + x.a, 0) };
    });
  return { length: sum(lengthBuckets, "l"), firstError: sum(errorBuckets, "e"), withoutError: r!.none ?? 0 };
}

// Per fork point, over its attempts in scope (as the recovery figures): known-outcome attempts, passes, the first
// passing attempt's 0-based position, and reward statistics of the sibling group.
const siblingGroups = (f: AnalyticsFilter) => sql`
  SELECT t."forkPointId" AS "id",
    SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS "n",
    SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS "c",
    MIN(CASE WHEN t."outcome" = 'passed' THEN t."attemptIndex" END) AS "first",
    AVG(t."reward") AS "mean", MIN(t."reward") AS "rmin", MAX(t."reward") AS "rmax", COUNT(t."reward") AS "rewarded"
  FROM "Trajectory" t WHERE t."forkPointId" IS NOT NULL AND ${scopeSql(f, "t")}
  GROUP BY t."forkPointId"`;

const siblingSummarySchema = z.array(z.object({ kind: num, k: numOrNull, fps: numOrNull, lo: numOrNull, hi: numOrNull }));

/**
 * The two sibling-group distributions: fork points with an attempt of known outcome by 1-based position of their
 * first successful attempt (null = never), and sibling groups (attempts of one fork point with a reward) by mean
 * reward — `a` = groups, `b` = groups of two or more rewarded attempts that all got the same reward (no spread, so
 * no signal for group-relative training). The per-fork-point aggregate is computed once for the attempts-to-recover
 * groups and the reward range (one statement, the aggregate materialized and read twice), then once more for the
 * reward buckets, whose edges depend on that range.
 */
export async function findSiblingDistributions(
  db: Db,
  f: AnalyticsFilter,
): Promise<{ attemptsToRecover: { attempts: number | null; forkPoints: number }[]; siblingReward: BucketCount[] }> {
  const summary = siblingSummarySchema.parse(
    await db.$queryRaw<unknown[]>`
    WITH g AS MATERIALIZED (${siblingGroups(f)})
    SELECT 0 AS "kind", CASE WHEN g."c" > 0 THEN g."first" + 1 END AS "k", CAST(COUNT(*) AS INTEGER) AS "fps", NULL AS "lo", NULL AS "hi"
    FROM g WHERE g."n" > 0 GROUP BY CASE WHEN g."c" > 0 THEN g."first" + 1 END
    UNION ALL
    SELECT 1 AS "kind", NULL AS "k", NULL AS "fps", MIN(g."mean") AS "lo", MAX(g."mean") AS "hi" FROM g WHERE g."rewarded" > 0`,
  );
  const attemptsToRecover = summary
    .filter((r) => r.kind === 0)
    .map((r) => ({ attempts: r.k, forkPoints: r.fps ?? 0 }))
    .sort((x, y) => (x.attempts ?? Infinity) - (y.attempts ?? Infinity));
  const range = summary.find((r) => r.kind === 1);
  if (!range || range.lo === null || range.hi === null) return { attemptsToRecover, siblingReward: [] };
  const buckets = realBuckets(range.lo, range.hi);
  const rows = await db.$queryRaw<unknown[]>`
    WITH g AS (${siblingGroups(f)})
    SELECT x."b" AS "b", CAST(COUNT(*) AS INTEGER) AS "a", CAST(SUM(x."flat") AS INTEGER) AS "c"
    FROM (SELECT ${bucketCase(sql`g."mean"`, buckets, false)} AS "b", CASE WHEN g."rewarded" > 1 AND g."rmin" = g."rmax" THEN 1 ELSE 0 END AS "flat"
          FROM g WHERE g."rewarded" > 0) x
    GROUP BY x."b"`;
  return { attemptsToRecover, siblingReward: fill(buckets, countsSchema.parse(rows)) };
}
