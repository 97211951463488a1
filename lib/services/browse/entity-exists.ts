// Cheap existence checks for detail pages: a layout answers 404 (status, not just a not-found page) before the page
// starts streaming, which it can only do if it knows early and quickly.
import { authorize, type ServiceContext } from "../context.ts";
import { resolveTrajectoryId } from "../../db/repositories/browse/trajectory-detail.ts";
import { findRun, findTask } from "../../db/repositories/browse/catalog.ts";

export async function trajectoryExists(ctx: ServiceContext, idOrExternal: string): Promise<boolean> {
  authorize(ctx, "trajectory:read");
  return (await resolveTrajectoryId(ctx.db, idOrExternal)) !== null;
}

export async function taskExists(ctx: ServiceContext, id: string): Promise<boolean> {
  authorize(ctx, "trajectory:read");
  return (await findTask(ctx.db, id)) !== null;
}

export async function runExists(ctx: ServiceContext, id: string): Promise<boolean> {
  authorize(ctx, "trajectory:read");
  return (await findRun(ctx.db, id)) !== null;
}
