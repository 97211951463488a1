// Per run and task: how many original rollouts (not recovery attempts) have a known outcome and how many passed.
// This grouped result (runs × tasks rows, never one row per rollout) feeds pass@k by checkpoint, the paired run
// comparison and task health.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { AnalyticsFilter } from "../../../validation/analytics-params.ts";
import { scopeConditions, whereSql } from "./scope.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);

export interface RunTaskSamples {
  runId: string;
  taskId: string;
  /** Rollouts with outcome passed or failed. */
  n: number;
  c: number;
  /** Rollouts with an unknown outcome (left out of n). */
  unknown: number;
}

export interface RunInfo {
  id: string;
  name: string;
  model: string | null;
  checkpoint: string | null;
  trainingMethod: string | null;
}

export interface TaskInfo {
  id: string;
  name: string;
  category: string | null;
}

const samplesSchema = z.array(z.object({ runId: z.string(), taskId: z.string(), n: num, c: num, u: num }));

export async function findRunTaskSamples(db: Db, f: AnalyticsFilter): Promise<RunTaskSamples[]> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT t."runId", t."taskId",
      CAST(SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS INTEGER) AS "n",
      CAST(SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS INTEGER) AS "c",
      CAST(SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 0 ELSE 1 END) AS INTEGER) AS "u"
    FROM "Trajectory" t${whereSql([sql`t."parentId" IS NULL`, ...scopeConditions(f, "t")])}
    GROUP BY t."runId", t."taskId"`;
  return samplesSchema.parse(rows).map((r) => ({ runId: r.runId, taskId: r.taskId, n: r.n, c: r.c, unknown: r.u }));
}

export async function findRuns(db: Db): Promise<RunInfo[]> {
  return db.run.findMany({
    select: { id: true, name: true, model: true, checkpoint: true, trainingMethod: true },
    orderBy: { name: "asc" },
  });
}

export async function findTasks(db: Db): Promise<TaskInfo[]> {
  return db.task.findMany({ select: { id: true, name: true, category: true }, orderBy: { name: "asc" } });
}
