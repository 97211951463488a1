// Delivery on PostgreSQL through pg-boss: a job id is a pg-boss job in a queue named after its kind; workers on any
// machine fetch them with SKIP LOCKED, and a handler asking for a retry gets one after pg-boss's backoff. Ownership,
// progress and the effect of a job are the Job table's (runner.ts); pg-boss only has to get the id to some worker,
// at least once. Its own expiry (a job active for longer than expireInSeconds is failed and retried) is harmless:
// the redelivery finds the job owned by a live run and does nothing.
import PgBoss from "pg-boss";
import type { Delivery } from "./types.ts";

export function pgBossDelivery(url: string, opts: { supervise: boolean }): Delivery {
  const boss = new PgBoss({
    connectionString: url,
    schema: "pgboss",
    max: 4,
    application_name: "reterm-jobs",
    // Maintenance (expiry, archiving) is one worker's job at a time (pg-boss elects it); a web replica sends only.
    supervise: opts.supervise,
    schedule: false,
  });
  boss.on("error", (e: Error) => console.error("[jobs] pg-boss:", e.message));
  let started: Promise<unknown> | null = null;
  const queues = new Map<string, Promise<void>>();
  const ready = () => (started ??= boss.start());
  const queue = async (kind: string) => {
    await ready();
    let q = queues.get(kind);
    if (!q) {
      q = boss.createQueue(kind, { name: kind, retryLimit: 20, retryDelay: 2, retryBackoff: true });
      queues.set(kind, q);
      q.catch(() => queues.delete(kind));
    }
    await q;
  };

  return {
    async send(kind, jobId) {
      await queue(kind);
      await boss.send(kind, { jobId });
    },
    async work(kinds, concurrency, handle) {
      for (const kind of kinds) {
        await queue(kind);
        for (let i = 0; i < concurrency; i++)
          await boss.work<{ jobId: string }>(kind, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
            if (!job) return;
            if ((await handle(kind, job.data.jobId)) === "retry") throw new Error("retry requested by the job's run");
          });
      }
    },
    async stop() {
      if (!started) return;
      await started.catch(() => undefined);
      await boss.stop({ graceful: true, close: true, wait: true, timeout: 30_000 });
    },
  };
}
