import { authorize, type ServiceContext } from "../context.ts";
import {
  findForkFamily,
  findSteps,
  findTrajectoryHead,
  getTrajectoryDetail,
  type ForkTreeNode,
  type StepView,
  type TrajectoryDetail,
} from "../../db/repositories/browse/trajectory-detail.ts";
import { AppError } from "../../errors.ts";

export type { ForkTreeNode, StepView, TrajectoryDetail };

export async function getTrajectory(ctx: ServiceContext, id: string): Promise<TrajectoryDetail> {
  authorize(ctx, "trajectory:read");
  const t = await getTrajectoryDetail(ctx.db, id);
  if (!t) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  return t;
}

export const MAX_STEP_RANGE = 500;

/** Steps [from, to) of a trajectory (at most MAX_STEP_RANGE of them). */
export async function getSteps(ctx: ServiceContext, id: string, from: number, to: number): Promise<StepView[]> {
  authorize(ctx, "trajectory:read");
  if (from < 0 || to < from) throw new AppError("INVALID_INPUT", `Invalid step range ${from}–${to}`);
  const head = await findTrajectoryHead(ctx.db, id);
  if (!head) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  return findSteps(ctx.db, head.id, from, Math.min(to, from + MAX_STEP_RANGE));
}

/** The fork family around a trajectory: its root, fork points and recovery attempts (several levels). */
export async function getForkTree(ctx: ServiceContext, id: string): Promise<{ root: ForkTreeNode; truncated: boolean }> {
  authorize(ctx, "trajectory:read");
  const family = await findForkFamily(ctx.db, id);
  if (!family) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  return family;
}
