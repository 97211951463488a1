// Use case: infer fork links for an import's trajectories (see lib/domain/fork-inference.ts), and undo them.
import { authorize, type ServiceContext } from "../context.ts";
import { inferForkLinks, type InferredLink } from "../../domain/fork-inference.ts";
import { deleteInferredLinks, findUnlinkedOfImports, loadForkCandidates } from "../../db/repositories/forks.ts";
import { configOf } from "../../db/client.ts";
import { openBulkWriter } from "../../db/bulk/writer.ts";

/** Shared prefixes longer than this are still found, but the fork point is placed at this step at the latest. */
export const MAX_PREFIX_STEPS = 256;

export interface InferredForksReport {
  importJobId: string;
  links: InferredLink[];
}

/** `alsoJobIds`: interrupted imports this one completes; their unlinked trajectories are candidates too. */
export async function inferForks(
  ctx: ServiceContext,
  opts: { importJobId: string; alsoJobIds?: readonly string[] },
): Promise<InferredForksReport> {
  authorize(ctx, "trajectory:import");
  const { ids, taskIds } = await findUnlinkedOfImports(ctx.db, [opts.importJobId, ...(opts.alsoJobIds ?? [])]);
  if (!ids.length) return { importJobId: opts.importJobId, links: [] };
  const pool = await loadForkCandidates(ctx.db, taskIds, MAX_PREFIX_STEPS);
  const links = inferForkLinks(pool, new Set(ids));
  if (links.length) {
    const writer = await openBulkWriter(configOf(ctx.db));
    try {
      await writer.linkForks(
        links.map((l) => ({ attemptId: l.attemptId, parent: { id: l.parentId }, stepIndex: l.stepIndex, inferred: true })),
      );
    } finally {
      await writer.close();
    }
  }
  return { importJobId: opts.importJobId, links };
}

/** Undo the inferred fork links of one import (explicit links are never touched). */
export async function undoInferredForks(ctx: ServiceContext, importJobId: string): Promise<number> {
  authorize(ctx, "trajectory:import");
  return deleteInferredLinks(ctx.db, importJobId);
}
