// The Job table: the app's record of background work (state, progress, attempts, error) and the ownership rule that
// makes a job's effects happen once. A run owns a job while its token is the row's `runToken` and it keeps
// `heartbeatAt` fresh; every state change a run makes is conditional on its token.
import type { Db } from "../client.ts";

export const JOB_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobView {
  id: string;
  kind: string;
  payload: string;
  title: string;
  state: JobState;
  progressDone: number;
  progressTotal: number;
  attempts: number;
  maxAttempts: number;
  error: string | null;
  result: string | null;
  worker: string | null;
  heartbeatAt: string | null;
  createdById: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

type Row = Awaited<ReturnType<Db["job"]["findUniqueOrThrow"]>>;
const toView = (j: Row): JobView => ({
  id: j.id,
  kind: j.kind,
  payload: j.payload,
  title: j.title,
  state: j.state as JobState,
  progressDone: j.progressDone,
  progressTotal: j.progressTotal,
  attempts: j.attempts,
  maxAttempts: j.maxAttempts,
  error: j.error,
  result: j.result,
  worker: j.worker,
  heartbeatAt: j.heartbeatAt?.toISOString() ?? null,
  createdById: j.createdById,
  createdAt: j.createdAt.toISOString(),
  startedAt: j.startedAt?.toISOString() ?? null,
  finishedAt: j.finishedAt?.toISOString() ?? null,
});

export async function insertJob(
  db: Db,
  j: { kind: string; payload: string; title: string; maxAttempts: number; createdById: string | null; progressTotal?: number },
): Promise<JobView> {
  return toView(await db.job.create({ data: j }));
}

export async function findJob(db: Db, id: string): Promise<JobView | null> {
  const j = await db.job.findUnique({ where: { id } });
  return j ? toView(j) : null;
}

export async function findJobs(db: Db, ids: readonly string[]): Promise<JobView[]> {
  return ids.length ? (await db.job.findMany({ where: { id: { in: [...ids] } } })).map(toView) : [];
}

/** The most recent jobs, newest first (the jobs page), optionally of some states. */
export async function listJobs(db: Db, opts: { states?: readonly JobState[]; take: number }): Promise<JobView[]> {
  const rows = await db.job.findMany({
    where: opts.states ? { state: { in: [...opts.states] } } : undefined,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.take,
  });
  return rows.map(toView);
}

export async function countJobsByState(db: Db): Promise<Record<JobState, number>> {
  const rows = await db.job.groupBy({ by: ["state"], _count: { _all: true } });
  const out = { queued: 0, running: 0, succeeded: 0, failed: 0 };
  for (const r of rows) if (r.state in out) out[r.state as JobState] = r._count._all;
  return out;
}

/**
 * Take a job for a run: it is queued, or running with a heartbeat older than `staleBefore` (its worker died). False
 * when another run owns it or it is finished — the delivery is then a duplicate and does nothing.
 */
export async function claimJob(db: Db, id: string, run: { token: string; worker: string; staleBefore: Date }): Promise<boolean> {
  const now = new Date();
  const { count } = await db.job.updateMany({
    where: { id, OR: [{ state: "queued" }, { state: "running", heartbeatAt: { lt: run.staleBefore } }] },
    data: { state: "running", runToken: run.token, worker: run.worker, heartbeatAt: now, startedAt: now, attempts: { increment: 1 } },
  });
  return count === 1;
}

/** Keep a run's ownership alive (and record progress). False: the run lost the job and must stop. */
export async function heartbeatJob(db: Db, id: string, token: string, progress?: { done: number; total?: number }): Promise<boolean> {
  const { count } = await db.job.updateMany({
    where: { id, runToken: token, state: "running" },
    data: {
      heartbeatAt: new Date(),
      ...(progress ? { progressDone: progress.done, ...(progress.total !== undefined ? { progressTotal: progress.total } : {}) } : {}),
    },
  });
  return count === 1;
}

/**
 * Finish a run: the job becomes succeeded and `effect` runs in the same transaction, only if the run still owns the
 * job. False (nothing written) when it does not: a run that lost its job never records an effect.
 */
export async function completeJob(
  db: Db,
  id: string,
  token: string,
  outcome: { result: string | null; progressDone?: number; progressTotal?: number },
  effect?: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id, runToken: token, state: "running" },
      data: {
        state: "succeeded",
        result: outcome.result,
        error: null,
        finishedAt: new Date(),
        ...(outcome.progressDone !== undefined ? { progressDone: outcome.progressDone } : {}),
        ...(outcome.progressTotal !== undefined ? { progressTotal: outcome.progressTotal } : {}),
      },
    });
    if (count !== 1) return false;
    if (effect) await effect(tx as unknown as Db);
    return true;
  });
}

/**
 * A run that failed: queued again while attempts remain and the error is not `final` ("retry"), else failed for good with `effect` in the same
 * transaction ("failed"). "lost" when the run no longer owned the job.
 */
export async function failJobRun(
  db: Db,
  id: string,
  token: string,
  error: string,
  final: boolean,
  effect?: (tx: Db) => Promise<void>,
): Promise<"retry" | "failed" | "lost"> {
  return db.$transaction(async (tx) => {
    const j = await tx.job.findUnique({ where: { id }, select: { runToken: true, state: true, attempts: true, maxAttempts: true } });
    if (!j || j.runToken !== token || j.state !== "running") return "lost";
    if (!final && j.attempts < j.maxAttempts) {
      await tx.job.updateMany({ where: { id, runToken: token }, data: { state: "queued", runToken: null, error } });
      return "retry";
    }
    await tx.job.updateMany({ where: { id, runToken: token }, data: { state: "failed", error, finishedAt: new Date() } });
    if (effect) await effect(tx as unknown as Db);
    return "failed";
  });
}

/** Hand a run's job back to the queue without counting the attempt (its worker is stopping, not failing). */
export async function releaseJob(db: Db, id: string, token: string): Promise<boolean> {
  const { count } = await db.job.updateMany({
    where: { id, runToken: token, state: "running" },
    data: { state: "queued", runToken: null, attempts: { decrement: 1 } },
  });
  return count === 1;
}

/** Running jobs whose heartbeat stopped before `staleBefore` (their worker died), oldest first. */
export async function findStaleJobs(
  db: Db,
  staleBefore: Date,
  take = 100,
): Promise<{ id: string; kind: string; attempts: number; maxAttempts: number }[]> {
  return db.job.findMany({
    where: { state: "running", heartbeatAt: { lt: staleBefore } },
    orderBy: { heartbeatAt: "asc" },
    select: { id: true, kind: true, attempts: true, maxAttempts: true },
    take,
  });
}

/**
 * A stale job back to the queue (true), or failed for good when its attempts are used up (false, with `effect`).
 * Conditional on it still being stale, so of two workers noticing the same dead run only one acts.
 */
export async function requeueStaleJob(
  db: Db,
  id: string,
  staleBefore: Date,
  error: string,
  effect?: (tx: Db) => Promise<void>,
): Promise<"queued" | "failed" | "taken"> {
  return db.$transaction(async (tx) => {
    const j = await tx.job.findFirst({
      where: { id, state: "running", heartbeatAt: { lt: staleBefore } },
      select: { attempts: true, maxAttempts: true, heartbeatAt: true },
    });
    if (!j) return "taken";
    const where = { id, state: "running", heartbeatAt: j.heartbeatAt };
    if (j.attempts < j.maxAttempts) {
      const { count } = await tx.job.updateMany({ where, data: { state: "queued", runToken: null, error } });
      return count === 1 ? "queued" : "taken";
    }
    const { count } = await tx.job.updateMany({ where, data: { state: "failed", error, finishedAt: new Date() } });
    if (count !== 1) return "taken";
    if (effect) await effect(tx as unknown as Db);
    return "failed";
  });
}

/** Queued jobs (oldest first): what the in-process runner has to deliver, including those queued by another process. */
export async function findQueuedJobs(db: Db, take: number, kinds: readonly string[]): Promise<{ id: string; kind: string }[]> {
  return db.job.findMany({
    where: { state: "queued", kind: { in: [...kinds] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, kind: true },
    take,
  });
}

/** Whether any of these jobs is queued or running (deleting a dataset waits for its exports). */
export async function anyJobUnfinished(db: Db, ids: readonly string[]): Promise<boolean> {
  if (!ids.length) return false;
  return (await db.job.count({ where: { id: { in: [...ids] }, state: { in: ["queued", "running"] } } })) > 0;
}
