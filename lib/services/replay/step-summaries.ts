// One line per step for the replay's step list, a range at a time: a long trajectory's list is fetched as it is
// scrolled instead of arriving whole with the page (1,600 steps were ≈ 215 KB of the page's payload).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { findStepHeads, findTrajectoryHead } from "../../db/repositories/browse/trajectory-detail.ts";
import type { StepSummary } from "../../domain/replay/recording.ts";
import { AppError } from "../../errors.ts";
import { summarizeStep } from "./session.ts";

/** Most step lines one request may ask for. */
export const MAX_STEP_SUMMARIES = 500;

/** Strict API schema for GET …/replay/steps (400 on bad input). */
export const stepSummaryQuerySchema = z
  .object({ from: z.coerce.number().int().nonnegative(), to: z.coerce.number().int().positive() })
  .refine((q) => q.to > q.from, { message: "to must be greater than from", path: ["to"] })
  .refine((q) => q.to - q.from <= MAX_STEP_SUMMARIES, { message: `at most ${MAX_STEP_SUMMARIES} steps per request`, path: ["to"] });
export type StepSummaryQuery = z.infer<typeof stepSummaryQuerySchema>;

export interface StepSummaryPage {
  /** Steps in the trajectory, so a list can size itself before it has them all. */
  total: number;
  steps: StepSummary[];
}

/** Step lines [from, to) of a trajectory (by id or client id). */
export async function getStepSummaries(ctx: ServiceContext, id: string, q: StepSummaryQuery): Promise<StepSummaryPage> {
  authorize(ctx, "trajectory:read");
  const head = await findTrajectoryHead(ctx.db, id);
  if (!head) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  const heads = await findStepHeads(ctx.db, head.id, q.from, Math.min(q.to, q.from + MAX_STEP_SUMMARIES));
  return { total: head.stepCount, steps: heads.map(summarizeStep) };
}
