import { authorize, type ServiceContext } from "../context.ts";
import { reindexFailureSignatures } from "../../db/repositories/failure-modes/reindex.ts";

/** Recompute every trajectory's failure signatures (a database from before signatures, or a changed normaliser). */
export async function reindexFailureModes(
  ctx: ServiceContext,
  opts: { onProgress?: (trajectories: number, signatures: number) => void } = {},
): Promise<{ trajectories: number; signatures: number }> {
  authorize(ctx, "trajectory:import");
  return reindexFailureSignatures(ctx.db, opts);
}
