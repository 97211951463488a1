// What a kind of background job is, as the runner sees it. Kinds are defined by the services (lib/services/jobs);
// this folder only delivers, runs and records them.
import type { Db } from "../db/client.ts";

export interface JobRunContext<P> {
  db: Db;
  id: string;
  payload: P;
  /** This run's token: unique per attempt; a run writes what it makes under it until it completes. */
  runId: string;
  attempt: number;
  createdById: string | null;
  /** Aborted when the run lost its job (another worker took it over) or the runner is stopping. */
  signal: AbortSignal;
  /** Record progress (throttled by the runner; it also keeps the run's heartbeat). */
  progress(done: number, total?: number): void;
}

export interface JobOutcome {
  /** A short result for the jobs page. */
  result?: string | null;
  progressDone?: number;
  /** The job's effect, committed in the same transaction as its success, and only if the run still owns the job. */
  effect?: (tx: Db) => Promise<void>;
  /** Work after the effect is committed (e.g. deleting files it replaced); a failure is logged, the job stays done. */
  afterCommit?: () => Promise<unknown>;
}

export interface JobKind<P = unknown> {
  kind: string;
  /** Attempts before the job fails for good (a killed worker's attempt counts). */
  maxAttempts: number;
  run(job: JobRunContext<P>): Promise<JobOutcome | void>;
  /** After the last attempt failed, in the same transaction as the failed state (e.g. the export row says failed). */
  onFailed?(payload: P, error: string, tx: Db): Promise<void>;
  /** A run that will not complete (it failed, or lost its job): remove what it wrote under its runId. */
  discardRun?(payload: P, runId: string): Promise<void>;
}

/** How job ids reach workers: pg-boss on PostgreSQL, a poll of the Job table on SQLite. */
export interface Delivery {
  send(kind: string, jobId: string): Promise<void>;
  /** Start taking deliveries of these kinds, up to `concurrency` at once per kind; "retry" asks for a later redelivery. */
  work(kinds: readonly string[], concurrency: number, handle: (kind: string, jobId: string) => Promise<"done" | "retry">): Promise<void>;
  stop(): Promise<void>;
}
