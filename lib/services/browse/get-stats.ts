import { authorize, type ServiceContext } from "../context.ts";
import { getDatabaseStats, type DatabaseStats } from "../../db/repositories/stats.ts";

export async function getStats(ctx: ServiceContext): Promise<DatabaseStats> {
  authorize(ctx, "trajectory:read");
  return getDatabaseStats(ctx.db);
}
