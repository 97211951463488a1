// The jobs page and GET /api/v1/jobs: recent background jobs with state, progress, attempts and error.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { countJobsByState, findJob, JOB_STATES, listJobs, type JobState, type JobView } from "../../db/repositories/jobs.ts";
import { AppError } from "../../errors.ts";

export type JobSummary = Omit<JobView, "payload">;

export const listJobsInputSchema = z.object({
  state: z.enum(JOB_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

const summary = ({ payload: _payload, ...rest }: JobView): JobSummary => rest;

export async function listBackgroundJobs(
  ctx: ServiceContext,
  raw: unknown = {},
): Promise<{ jobs: JobSummary[]; counts: Record<JobState, number> }> {
  authorize(ctx, "jobs:read");
  const q = listJobsInputSchema.parse(raw);
  const [jobs, counts] = await Promise.all([
    listJobs(ctx.db, { states: q.state ? [q.state] : undefined, take: q.limit }),
    countJobsByState(ctx.db),
  ]);
  return { jobs: jobs.map(summary), counts };
}

export async function getBackgroundJob(ctx: ServiceContext, id: string): Promise<JobSummary> {
  authorize(ctx, "jobs:read");
  const j = await findJob(ctx.db, id);
  if (!j) throw new AppError("NOT_FOUND", `no job ${id}`);
  return summary(j);
}
