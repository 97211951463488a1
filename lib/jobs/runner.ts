// Runs jobs for one database: enqueue records a job and sends its id; a runner claims delivered ids, keeps a
// heartbeat while the handler works, and finishes the job conditionally on still owning it. Every runner also
// watches for runs whose heartbeat stopped (a killed worker) and queues those jobs again, so any surviving worker
// picks them up; a job's attempts (the killed ones included) are bounded by its kind's maxAttempts.
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "../db/client.ts";
import {
  claimJob,
  completeJob,
  failJobRun,
  findJob,
  findStaleJobs,
  heartbeatJob,
  insertJob,
  releaseJob,
  requeueStaleJob,
  type JobView,
} from "../db/repositories/jobs.ts";
import { AppError, type ErrorCode } from "../errors.ts";
import type { Delivery, JobKind } from "./types.ts";

const PERMANENT = new Set<ErrorCode>(["NOT_FOUND", "FORBIDDEN", "UNAUTHENTICATED", "INVALID_INPUT", "CONFLICT"]);

export interface RunnerOptions {
  /** A run whose heartbeat is older than this is taken to be dead. */
  staleSeconds: number;
  /** Jobs of each kind one process runs at once. */
  concurrency: number;
}

const PROGRESS_EVERY_MS = 1_000;
const WORKER = `${os.hostname()}:${process.pid}`;

export class JobRunner {
  private kinds = new Map<string, JobKind<unknown>>();
  private reaper: NodeJS.Timeout | null = null;
  private runs = new Set<AbortController>();
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly delivery: Delivery,
    private readonly opts: RunnerOptions,
  ) {}

  /** Record a job and hand it to the delivery. The job is queued (and visible) even if no worker runs yet. */
  async enqueue(
    kind: Pick<JobKind, "kind" | "maxAttempts">,
    payload: unknown,
    meta: { title: string; createdById: string | null; progressTotal?: number },
  ): Promise<JobView> {
    const job = await insertJob(this.db, {
      kind: kind.kind,
      payload: JSON.stringify(payload),
      title: meta.title,
      maxAttempts: kind.maxAttempts,
      createdById: meta.createdById,
      progressTotal: meta.progressTotal,
    });
    await this.delivery.send(kind.kind, job.id);
    return job;
  }

  /** Start working on these kinds in this process (idempotent per kind). */
  async start(kinds: readonly JobKind<unknown>[]): Promise<void> {
    const fresh = kinds.filter((k) => !this.kinds.has(k.kind));
    for (const k of fresh) this.kinds.set(k.kind, k);
    if (!fresh.length) return;
    await this.delivery.work(
      fresh.map((k) => k.kind),
      this.opts.concurrency,
      (kind, id) => this.handle(kind, id),
    );
    if (!this.reaper) {
      const every = Math.max(250, (this.opts.staleSeconds * 1000) / 3);
      this.reaper = setInterval(() => void this.reap().catch((e: unknown) => console.error("[jobs] reaping failed:", e)), every);
      this.reaper.unref();
      await this.reap().catch((e: unknown) => console.error("[jobs] reaping failed:", e));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
    for (const c of this.runs) c.abort(new Error("the job runner is stopping"));
    await this.delivery.stop();
  }

  private staleBefore = () => new Date(Date.now() - this.opts.staleSeconds * 1000);

  /** Queue again the jobs whose run stopped beating; those out of attempts fail for good. */
  private async reap(): Promise<void> {
    const cutoff = this.staleBefore();
    for (const s of await findStaleJobs(this.db, cutoff)) {
      const kind = this.kinds.get(s.kind);
      if (!kind) continue; // a kind this process does not run: left to a worker that does
      const error = `the worker running attempt ${s.attempts} stopped (no heartbeat for ${this.opts.staleSeconds} s)`;
      // Sent before it is queued again: if this process dies in between, the job is still delivered once requeued
      // by another runner; a delivery that finds the job taken does nothing.
      if (s.attempts < s.maxAttempts) await this.delivery.send(s.kind, s.id);
      const job = await findJob(this.db, s.id);
      const payload = job ? (JSON.parse(job.payload) as unknown) : null;
      const r = await requeueStaleJob(this.db, s.id, cutoff, error, kind.onFailed ? (tx) => kind.onFailed!(payload, error, tx) : undefined);
      if (r !== "taken") console.warn(`[jobs] ${s.kind} ${s.id}: ${error}; ${r === "queued" ? "queued again" : "failed for good"}`);
    }
  }

  private async handle(kindName: string, id: string): Promise<"done" | "retry"> {
    const kind = this.kinds.get(kindName);
    if (!kind) return "retry";
    const runId = randomUUID();
    if (!(await claimJob(this.db, id, { token: runId, worker: WORKER, staleBefore: this.staleBefore() }))) return "done";
    const job = (await findJob(this.db, id))!;
    const payload = JSON.parse(job.payload) as unknown;
    const abort = new AbortController();
    this.runs.add(abort);
    let pending: { done: number; total?: number } | undefined;
    const beat = async () => {
      const p = pending;
      pending = undefined;
      if (!(await heartbeatJob(this.db, id, runId, p).catch(() => true)))
        abort.abort(new Error("the job was taken over by another worker"));
    };
    const timer = setInterval(() => void beat(), Math.min(PROGRESS_EVERY_MS, (this.opts.staleSeconds * 1000) / 4));
    try {
      const out =
        (await kind.run({
          db: this.db,
          id,
          payload,
          runId,
          attempt: job.attempts,
          createdById: job.createdById,
          signal: abort.signal,
          progress: (done, total) => void (pending = { done, total }),
        })) ?? {};
      abort.signal.throwIfAborted();
      clearInterval(timer);
      const last = pending as { done: number; total?: number } | undefined;
      const won = await completeJob(
        this.db,
        id,
        runId,
        { result: out.result ?? null, progressDone: out.progressDone ?? last?.done, progressTotal: last?.total },
        out.effect,
      );
      if (!won) await kind.discardRun?.(payload, runId);
      else await out.afterCommit?.().catch((e: unknown) => console.error(`[jobs] ${kindName} ${id}: after completing:`, e));
      return "done";
    } catch (e) {
      clearInterval(timer);
      const message = (e as Error).message || String(e);
      await kind.discardRun?.(payload, runId).catch(() => undefined);
      // Stopped with its worker (SIGTERM, a deploy): back to the queue for another worker, not a failed attempt.
      if (this.stopping && (await releaseJob(this.db, id, runId).catch(() => false))) return "retry";
      // An error that another attempt cannot change (bad input, a deleted dataset, no permission) fails at once.
      const final = e instanceof AppError && PERMANENT.has(e.code);
      const r = await failJobRun(
        this.db,
        id,
        runId,
        message,
        final,
        kind.onFailed ? (tx) => kind.onFailed!(payload, message, tx) : undefined,
      );
      if (r === "retry") console.warn(`[jobs] ${kindName} ${id}: attempt ${job.attempts} failed (${message}); retrying`);
      return r === "retry" ? "retry" : "done";
    } finally {
      clearInterval(timer);
      this.runs.delete(abort);
    }
  }
}
