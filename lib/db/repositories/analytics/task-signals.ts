// Per-task warning signs that need more than outcome counts: reward that contradicts the verifier's verdict, and
// trajectories labelled as an invalid task / brittle verifier. Grouped by task in the database.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { ERROR_CATEGORY_SCHEMA_KEY } from "./fork-category.ts";
import { scopeConditions, whereSql } from "./scope.ts";
import { withPlainPlan } from "./serial.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);

/** The error-category value that marks a task as unusable for training. */
export const TASK_INVALID = "task-invalid";

/**
 * A reward disagrees with the verifier when a passed rollout earned nothing or a failed one earned the full reward.
 * Partial rewards on failures are normal for graded tasks, so they are not flagged.
 */
const REWARD_ANOMALIES = [sql`t."outcome" = 'passed' AND t."reward" <= 0`, sql`t."outcome" = 'failed' AND t."reward" >= 1`];

export interface TaskSignals {
  taskId: string;
  rewardAnomalies: number;
  invalidLabels: number;
}

export async function findTaskSignals(db: Db, f: AnalyticsFilter): Promise<TaskSignals[]> {
  const scope = scopeConditions(f, "t");
  const [anomalies, labels] = await Promise.all([
    // One branch per kind of anomaly, each a range seek on Trajectory(outcome, reward, taskId, runId); written as one
    // OR, SQLite walked a whole index in taskId order for the GROUP BY instead.
    withPlainPlan(
      db,
      (q) => q.$queryRaw<unknown[]>`SELECT x."k" AS "k", CAST(SUM(x."c") AS INTEGER) AS "c" FROM (
      ${Prisma.join(
        REWARD_ANOMALIES.map(
          (anomaly) =>
            sql`SELECT t."taskId" AS "k", COUNT(*) AS "c" FROM "Trajectory" t${whereSql([anomaly, ...scope])} GROUP BY t."taskId"`,
        ),
        " UNION ALL ",
      )}) x
      GROUP BY x."k"`,
    ),
    db.$queryRaw<unknown[]>`SELECT t."taskId" AS "k", CAST(COUNT(DISTINCT a."trajectoryId") AS INTEGER) AS "c"
      FROM "Annotation" a JOIN "LabelSchema" s ON s."id" = a."schemaId" JOIN "Trajectory" t ON t."id" = a."trajectoryId"
      ${whereSql([sql`s."key" = ${ERROR_CATEGORY_SCHEMA_KEY}`, sql`a."value" = ${TASK_INVALID}`, ...scope])} GROUP BY t."taskId"`,
  ]);
  const parse = (rows: unknown[]) =>
    new Map(
      z
        .array(z.object({ k: z.string(), c: num }))
        .parse(rows)
        .map((r) => [r.k, r.c]),
    );
  const a = parse(anomalies);
  const l = parse(labels);
  return [...new Set([...a.keys(), ...l.keys()])].map((taskId) => ({
    taskId,
    rewardAnomalies: a.get(taskId) ?? 0,
    invalidLabels: l.get(taskId) ?? 0,
  }));
}
