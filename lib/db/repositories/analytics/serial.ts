// PostgreSQL settings for the analytics aggregates, which read at most a narrow index of the Trajectory table
// (10^5 entries) and return a few hundred rows. Two planner features cost more than they save at this size, measured
// on the 2-core bench machine (docs/benchmarks.md, "Speed work at 10^5"): parallel workers (the length histograms and
// the reward-anomaly ranges, whose size the planner overestimates — 150–180 ms to start workers for scans that take
// 1–30 ms in one process), and JIT compilation (the recovery query, costed above jit_above_cost, compiled ~80
// functions on every call). So these statements run with both off: SET LOCAL in a transaction of their own.
// SQLite has neither.
import type { Db } from "../../client.ts";
import { dialectOf, type Queryable } from "../../dialect.ts";

export async function withPlainPlan<T>(db: Db, run: (q: Queryable) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== "postgresql") return run(db);
  // The page runs its sections concurrently: wait for a pooled connection rather than fail.
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL max_parallel_workers_per_gather = 0");
      await tx.$executeRawUnsafe("SET LOCAL jit = off");
      return run(tx);
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
}
