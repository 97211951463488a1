// Delivery on SQLite (one machine by definition): the Job table is the queue. Every runner process on the database
// file polls it for queued jobs (a job sent by this process wakes its poll at once), so a web process started with
// RETERM_JOBS=off and `npm run worker` beside it share work the same way replicas do on PostgreSQL.
import { findQueuedJobs } from "../db/repositories/jobs.ts";
import type { Db } from "../db/client.ts";
import type { Delivery } from "./types.ts";

const POLL_MS = 1_000;
const RETRY_DELAY_MS = 2_000;

export function localDelivery(db: Db): Delivery {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;
  const running = new Map<string, Promise<void>>();
  const notBefore = new Map<string, number>();

  return {
    async send() {
      wake?.();
    },
    async work(kinds, concurrency, handle) {
      const limit = concurrency * kinds.length;
      const tick = async () => {
        timer = null;
        if (stopped) return;
        try {
          const free = limit - running.size;
          if (free > 0) {
            const now = Date.now();
            const queued = await findQueuedJobs(db, free + running.size + notBefore.size, kinds);
            for (const j of queued) {
              if (running.size >= limit) break;
              if (running.has(j.id) || (notBefore.get(j.id) ?? 0) > now) continue;
              notBefore.delete(j.id);
              const p = handle(j.kind, j.id)
                .then((r) => void (r === "retry" && notBefore.set(j.id, Date.now() + RETRY_DELAY_MS)))
                .catch((e: unknown) => console.error(`[jobs] ${j.kind} ${j.id}:`, e))
                .finally(() => {
                  running.delete(j.id);
                  wake?.();
                });
              running.set(j.id, p);
            }
          }
        } catch (e) {
          if (!stopped) console.error("[jobs] polling the job table failed:", e);
        }
        if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
      };
      wake = () => {
        if (stopped || !timer) return;
        clearTimeout(timer);
        timer = setTimeout(() => void tick(), 0);
      };
      await tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled(running.values());
    },
  };
}
