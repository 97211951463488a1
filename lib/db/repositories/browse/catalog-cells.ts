// Grouped counts behind the run and task pages (and GET /api/v1/runs, /tasks): original rollouts per (run, task)
// split into passed / failed / unknown, and fork points per (run, task, n, c). The metrics themselves are computed
// from these cells by lib/domain/analytics/metrics.ts, the same functions the analytics pages use.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);

export interface CellScope {
  runId?: string;
  taskId?: string;
}

export interface RolloutCountCell {
  runId: string;
  taskId: string;
  /** Original rollouts with a known outcome, and how many passed. */
  n: number;
  c: number;
  unknown: number;
}

/** Original rollouts (no parent) per (run, task). */
export async function findRolloutCells(db: Db, scope: CellScope = {}): Promise<RolloutCountCell[]> {
  const rows = await db.trajectory.groupBy({
    by: ["runId", "taskId", "outcome"],
    where: { ...scope, parentId: null },
    _count: { _all: true },
  });
  const cells = new Map<string, RolloutCountCell>();
  for (const r of rows) {
    const key = `${r.runId}\u0000${r.taskId}`;
    const cell = cells.get(key) ?? cells.set(key, { runId: r.runId, taskId: r.taskId, n: 0, c: 0, unknown: 0 }).get(key)!;
    if (r.outcome === "passed") {
      cell.n += r._count._all;
      cell.c += r._count._all;
    } else if (r.outcome === "failed") cell.n += r._count._all;
    else cell.unknown += r._count._all;
  }
  return [...cells.values()];
}

export interface ForkPointCountCell {
  runId: string;
  taskId: string;
  /** Known-outcome attempts per fork point, and how many passed. */
  n: number;
  c: number;
  forkPoints: number;
  /** All attempts, unknown outcomes included. */
  attempts: number;
  firstSuccessSum: number;
  firstSuccessCount: number;
}

const forkSchema = z.array(
  z.object({ runId: z.string(), taskId: z.string(), n: num, c: num, fps: num, attempts: num, firstSum: num.nullable(), firstCount: num }),
);

/**
 * Fork points per (run, task, n, c). A fork point belongs to the run of its attempts — and, with no attempt in its
 * parent's run, to the parent's run with zero attempts — which is how the analytics run filter counts it, so a run's
 * recovery rate here equals `analytics recovery --run` for that run.
 */
export async function findForkPointCells(db: Db, scope: CellScope = {}): Promise<ForkPointCountCell[]> {
  const attemptScope = [sql`t."forkPointId" IS NOT NULL`];
  const parentScope = [sql`1 = 1`];
  if (scope.runId !== undefined) {
    attemptScope.push(sql`t."runId" = ${scope.runId}`);
    parentScope.push(sql`p."runId" = ${scope.runId}`);
  }
  if (scope.taskId !== undefined) {
    attemptScope.push(sql`t."taskId" = ${scope.taskId}`);
    parentScope.push(sql`p."taskId" = ${scope.taskId}`);
  }
  const rows = await db.$queryRaw<unknown[]>`
    WITH agg AS (
      SELECT t."forkPointId" AS "id", t."runId", t."taskId", COUNT(*) AS "attempts",
        SUM(CASE WHEN t."outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS "n",
        SUM(CASE WHEN t."outcome" = 'passed' THEN 1 ELSE 0 END) AS "c",
        MIN(CASE WHEN t."outcome" = 'passed' THEN t."attemptIndex" END) AS "first"
      FROM "Trajectory" t WHERE ${Prisma.join(attemptScope, " AND ")}
      GROUP BY t."forkPointId", t."runId", t."taskId"
    ), per AS (
      SELECT "runId", "taskId", "n", "c", "attempts", "first" FROM agg
      UNION ALL
      SELECT p."runId", p."taskId", 0, 0, 0, NULL FROM "ForkPoint" fp JOIN "Trajectory" p ON p."id" = fp."trajectoryId"
      WHERE ${Prisma.join(parentScope, " AND ")} AND NOT EXISTS (SELECT 1 FROM agg WHERE agg."id" = fp."id" AND agg."runId" = p."runId")
    )
    SELECT "runId", "taskId", CAST("n" AS INTEGER) AS "n", CAST("c" AS INTEGER) AS "c", CAST(COUNT(*) AS INTEGER) AS "fps",
      CAST(SUM("attempts") AS INTEGER) AS "attempts", CAST(SUM("first" + 1) AS INTEGER) AS "firstSum", CAST(COUNT("first") AS INTEGER) AS "firstCount"
    FROM per GROUP BY "runId", "taskId", "n", "c"`;
  return forkSchema.parse(rows).map((r) => ({
    runId: r.runId,
    taskId: r.taskId,
    n: r.n,
    c: r.c,
    forkPoints: r.fps,
    attempts: r.attempts,
    firstSuccessSum: r.firstSum ?? 0,
    firstSuccessCount: r.firstCount,
  }));
}
