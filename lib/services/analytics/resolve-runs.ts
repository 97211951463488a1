import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { findRuns } from "../../db/repositories/analytics/run-samples.ts";

/** Run ids for run names (the CLI names runs); NOT_FOUND names the first unknown one. */
export async function resolveRunNames(ctx: ServiceContext, names: string[]): Promise<string[]> {
  authorize(ctx, "trajectory:read");
  if (!names.length) return [];
  const byName = new Map((await findRuns(ctx.db)).map((r) => [r.name, r.id]));
  return names.map((n) => {
    const id = byName.get(n);
    if (!id) throw new AppError("NOT_FOUND", `no run named "${n}"`);
    return id;
  });
}
