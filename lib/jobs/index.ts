// The job runner of a database client: one per client and process (on globalThis, because Next.js may load this
// module in several server chunks). Delivery follows the database: pg-boss on PostgreSQL, the Job table on SQLite.
import { configOf, type Db } from "../db/client.ts";
import { getEnv } from "../env.ts";
import { localDelivery } from "./local-delivery.ts";
import { pgBossDelivery } from "./pg-boss-delivery.ts";
import { JobRunner } from "./runner.ts";

export type { JobKind, JobOutcome, JobRunContext } from "./types.ts";
export type { JobRunner } from "./runner.ts";

const g = globalThis as unknown as { __retermJobRunners?: Map<Db, JobRunner> };
const runners = (g.__retermJobRunners ??= new Map<Db, JobRunner>());

/** This process's runner for `db` (created on first use; it sends jobs, and runs them once started). */
export function jobRunner(db: Db): JobRunner {
  let r = runners.get(db);
  if (!r) {
    const env = getEnv();
    const config = configOf(db);
    const delivery =
      config.provider === "postgresql" ? pgBossDelivery(config.url, { supervise: env.RETERM_JOBS !== "off" }) : localDelivery(db);
    r = new JobRunner(db, delivery, { staleSeconds: env.RETERM_JOB_STALE_SECONDS, concurrency: env.RETERM_JOB_CONCURRENCY });
    runners.set(db, r);
  }
  return r;
}

/** Stop the runner of `db` if there is one (before the database goes away: tests' teardown, a worker's exit). */
export async function stopJobRunner(db: Db): Promise<void> {
  const r = runners.get(db);
  if (!r) return;
  runners.delete(db);
  await r.stop();
}

export async function stopAllJobRunners(): Promise<void> {
  await Promise.all([...runners.keys()].map((db) => stopJobRunner(db)));
}
