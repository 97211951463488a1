import { z } from "zod";

import type { Db } from "../client.ts";

export interface DatabaseStats {
  tasks: number;
  runs: number;
  trajectories: number;
  steps: number;
  forkPoints: number;
  annotations: number;
  datasets: number;
}

const num = z.union([z.number(), z.bigint()]).transform(Number);
const statsRow = z.object({
  tasks: num,
  runs: num,
  trajectories: num,
  steps: num.nullable(),
  forkPoints: num,
  annotations: num,
  datasets: num,
});

/**
 * One statement. Steps are not counted row by row (millions of rows at 10^5 trajectories, the slowest figure of the
 * analytics page): every trajectory's `stepCount` is the number of its Step rows (written with them, in the same
 * transaction; tests/integration/import.test.ts checks the invariant), so their sum is the count — read in the same
 * pass as the trajectory count, from the narrow `Trajectory(stepCount)` index on SQLite.
 */
export async function getDatabaseStats(db: Db): Promise<DatabaseStats> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT (SELECT COUNT(*) FROM "Task") AS "tasks", (SELECT COUNT(*) FROM "Run") AS "runs", x."n" AS "trajectories", x."s" AS "steps",
      (SELECT COUNT(*) FROM "ForkPoint") AS "forkPoints", (SELECT COUNT(*) FROM "Annotation") AS "annotations", (SELECT COUNT(*) FROM "Dataset") AS "datasets"
    FROM (SELECT COUNT(*) AS "n", SUM(t."stepCount") AS "s" FROM "Trajectory" t) x`;
  const [r] = z.array(statsRow).length(1).parse(rows);
  return { ...r!, steps: r!.steps ?? 0 };
}

export async function countTrajectories(db: Db): Promise<number> {
  return db.trajectory.count();
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}
