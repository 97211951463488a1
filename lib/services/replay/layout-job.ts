// Laying out the replays of an import's big trajectories (timing index, chunks, keyframes), as a background job: an
// upload or an API push answers once its trajectories are written and settled, and a worker lays out their replays
// for everyone's first view. (The CLI lays them out inline: it is a batch process, not a request.) A layout a worker
// did not get to is computed on first view, as for any trajectory.
import type { JobKind } from "../../jobs/index.ts";
import { jobRunner } from "../../jobs/index.ts";
import type { ServiceContext } from "../context.ts";
import { getJobContext } from "../job-context.ts";
import { warmReplayLayouts } from "./session.ts";

export interface ReplayLayoutsPayload {
  trajectoryIds: string[];
}

export const REPLAY_LAYOUTS_JOB: JobKind<ReplayLayoutsPayload> = {
  kind: "replay-layouts",
  maxAttempts: 2,
  async run({ db, payload, createdById, signal, progress }) {
    const ctx = await getJobContext(db, createdById);
    let n = 0;
    for (const [i, id] of payload.trajectoryIds.entries()) {
      signal.throwIfAborted();
      n += await warmReplayLayouts(ctx, [id]);
      progress(i + 1, payload.trajectoryIds.length);
    }
    return { result: `${n} of ${payload.trajectoryIds.length} replays laid out (the rest were already)` };
  },
};

export async function queueReplayLayouts(ctx: ServiceContext, trajectoryIds: readonly string[]): Promise<{ jobId: string }> {
  const job = await jobRunner(ctx.db).enqueue(
    REPLAY_LAYOUTS_JOB,
    { trajectoryIds: [...trajectoryIds] },
    {
      title: `laying out ${trajectoryIds.length} imported replay${trajectoryIds.length === 1 ? "" : "s"}`,
      createdById: ctx.actor.id || null,
      progressTotal: trajectoryIds.length,
    },
  );
  return { jobId: job.id };
}
