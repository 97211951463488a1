// Start running background jobs in this process: `npm run worker` (jobs only), and every web server unless
// RETERM_JOBS=off (the single-machine case stays one command). Idempotent.
import { getDb, type Db } from "../../db/client.ts";
import { jobRunner, stopJobRunner } from "../../jobs/index.ts";
import { JOB_KINDS } from "./kinds.ts";
import { queueRetention } from "./retention.ts";

const RETENTION_EVERY_MS = 3_600_000;
const g = globalThis as unknown as { __retermRetention?: WeakMap<Db, NodeJS.Timeout> };
const timers = (g.__retermRetention ??= new WeakMap<Db, NodeJS.Timeout>());

/** Start running every kind of job on `db` (default: the configured database). */
export async function startJobWorker(db: Db = getDb()): Promise<void> {
  await jobRunner(db).start(JOB_KINDS);
  if (timers.has(db)) return;
  const queue = () => void queueRetention(db).catch((e: unknown) => console.error("[jobs] queueing the retention sweep failed:", e));
  const t = setInterval(queue, RETENTION_EVERY_MS);
  t.unref();
  timers.set(db, t);
  queue();
}

/** Stop running jobs for `db` in this process: runs in progress are aborted and queued again for another worker. */
export async function stopJobWorker(db: Db = getDb()): Promise<void> {
  const t = timers.get(db);
  if (t) clearInterval(t);
  timers.delete(db);
  await stopJobRunner(db);
}
