// Delivery on SQLite (one machine by definition): the Job table is the queue. Every runner process on the database
// file polls it for queued jobs (a job sent by this process wakes its poll at once), so a web process started with
// RETERM_JOBS=off and `npm run worker` beside it share work the same way replicas do on PostgreSQL.
import { findQueuedJobs } from "../db/repositories/jobs.ts";
import type { Db } from "../db/client.ts";
import type { Delivery } from "./types.ts";

const POLL_MS = 1_000;
const RETRY_DELAY_MS = 2_000;

type Handle = (kind: string, jobId: string) => Promise<"done" | "retry">;

export function localDelivery(db: Db): Delivery {
  const kinds = new Map<string, Handle>();
  let concurrency = 1;
  let timer: NodeJS.Timeout | null = null;
  let polling = false;
  let again = false;
  let stopped = false;
  const running = new Map<string, { kind: string; done: Promise<void> }>();
  const notBefore = new Map<string, number>();
  const busy = (kind: string) => [...running.values()].filter((r) => r.kind === kind).length;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void poll(), ms);
  };

  // One poll at a time; a wake-up during a poll makes it poll again right after.
  async function poll(): Promise<void> {
    timer = null;
    if (stopped) return;
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    try {
      const now = Date.now();
      const open = [...kinds.keys()].filter((k) => busy(k) < concurrency);
      const queued = open.length ? await findQueuedJobs(db, running.size + notBefore.size + concurrency * open.length, open) : [];
      for (const j of queued) {
        if (stopped || busy(j.kind) >= concurrency || running.has(j.id) || (notBefore.get(j.id) ?? 0) > now) continue;
        notBefore.delete(j.id);
        const done = kinds.get(j.kind)!(j.kind, j.id)
          .then((r) => void (r === "retry" && notBefore.set(j.id, Date.now() + RETRY_DELAY_MS)))
          .catch((e: unknown) => console.error(`[jobs] ${j.kind} ${j.id}:`, e))
          .finally(() => {
            running.delete(j.id);
            schedule(0);
          });
        running.set(j.id, { kind: j.kind, done });
      }
    } catch (e) {
      if (!stopped) console.error("[jobs] polling the job table failed:", e);
    } finally {
      polling = false;
    }
    if (again) {
      again = false;
      schedule(0);
    } else schedule(POLL_MS);
  }

  return {
    async send() {
      if (kinds.size) schedule(0);
    },
    async work(names, perKind, handle) {
      concurrency = perKind;
      for (const k of names) kinds.set(k, handle);
      await poll();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
