// The phases of an import after its rows are written: explicit fork links (attempts whose parent is now there),
// fork inference, the search index, replay layouts. Each is driven by what the database says is missing, not by
// which rows were new in this run, so a run that completes a killed import ends exactly where an uninterrupted one
// would have.
import { authorize, type ServiceContext } from "../context.ts";
import { configOf } from "../../db/client.ts";
import { openBulkWriter } from "../../db/bulk/writer.ts";
import { findResolvablePendingAttempts, findUnresolvedAttempts } from "../../db/repositories/forks.ts";
import { indexAllMissing } from "../../db/repositories/search/index.ts";
import { findUnlaidTrajectoriesOfImports } from "../../db/repositories/replay/layouts.ts";
import { refreshFacetCellBounds } from "../../db/repositories/browse/facet-cells.ts";
import { inferForks } from "./infer-forks.ts";
import { queueSearchIndex } from "./search-index-job.ts";
import { queueReplayLayouts, warmReplayLayouts } from "../replay/index.ts";
import type { InferredLink } from "../../domain/fork-inference.ts";
import type { ImportIssue } from "../../importers/types.ts";

export interface SettleOptions {
  /** The import being finished. */
  jobId: string;
  /** Interrupted imports this run completes (their trajectories get the same phases). */
  resumedJobIds: readonly string[];
  inferForks: boolean;
  indexSearch: boolean;
  /** Trajectories of this run with enough output to lay out their replay right away. */
  bigOutput: readonly string[];
  /** Output size from which a trajectory's replay is laid out during the import. */
  warmChars: number;
  /**
   * Leave the search index and the replay layouts to background jobs (uploads and API pushes: the request answers
   * sooner, and the work runs on a worker rather than on whichever web server took the request).
   */
  defer: boolean;
  /** Trajectories this run wrote (the search job's title). */
  imported: number;
  onIndexProgress?: (indexed: number) => void;
}

export interface SettleResult {
  unresolvedForks: { attempt: string; parent: string }[];
  inferredLinks: InferredLink[];
  warnings: ImportIssue[];
}

const MAX_UNRESOLVED = 10_000;

export async function settleImport(ctx: ServiceContext, opts: SettleOptions): Promise<SettleResult> {
  authorize(ctx, "trajectory:import");
  const jobs = [opts.jobId, ...opts.resumedJobIds];
  const warnings: ImportIssue[] = [];

  // Explicit links: every attempt (of any import) still waiting for a parent that exists now, in write order.
  const pending = await findResolvablePendingAttempts(ctx.db);
  if (pending.length) {
    const writer = await openBulkWriter(configOf(ctx.db));
    try {
      await writer.linkForks(
        pending.map((f) => ({
          attemptId: f.attemptId,
          parent: { externalId: f.parentExternalId },
          stepIndex: f.stepIndex,
          attemptIndex: f.attemptIndex,
          errorCategory: f.errorCategory,
          inferred: false,
        })),
      );
    } finally {
      await writer.close();
    }
  }
  const unresolvedForks = await findUnresolvedAttempts(ctx.db, jobs, MAX_UNRESOLVED);

  const inferredLinks = opts.inferForks ? (await inferForks(ctx, { importJobId: opts.jobId, alsoJobIds: opts.resumedJobIds })).links : [];
  // Parents that got fork points left their cells: one grouped pass makes those cells' range bounds exact again.
  // Not part of the import's result: until a refresh succeeds, the facets compute stale cells' bounds from their rows.
  await refreshFacetCellBounds(ctx.db).catch((e: unknown) =>
    warnings.push({
      file: "(facet ranges)",
      message: `refreshing the facets' range bounds failed; they are computed from the rows until the next import: ${(e as Error).message}`,
      severity: "warning",
    }),
  );

  const queued =
    opts.indexSearch && opts.defer && opts.imported > 0
      ? await queueSearchIndex(ctx, opts.imported).then(
          () => true,
          (e: unknown) => {
            warnings.push({
              file: "(search index)",
              message: `queueing the search index failed, indexed now: ${(e as Error).message}`,
              severity: "warning",
            });
            return false;
          },
        )
      : false;
  if (opts.indexSearch && !queued) {
    // After the write: the import's own transactions stay short, and search sees whole trajectories.
    await indexAllMissing(ctx.db, { onStep: opts.onIndexProgress });
  }

  const layouts = [...opts.bigOutput, ...(await findUnlaidTrajectoriesOfImports(ctx.db, opts.resumedJobIds, opts.warmChars))];
  if (layouts.length && opts.defer) {
    await queueReplayLayouts(ctx, layouts).catch((e: unknown) =>
      warnings.push({
        file: "(replay layout)",
        message: `queueing the replay layouts failed: ${(e as Error).message}`,
        severity: "warning",
      }),
    );
  } else if (layouts.length) {
    // A layout that cannot be computed now is computed (and reported) on first view: the import itself stands.
    await warmReplayLayouts(ctx, layouts).catch((e: unknown) =>
      warnings.push({ file: "(replay layout)", message: `laying out replays failed: ${(e as Error).message}`, severity: "warning" }),
    );
  }
  return { unresolvedForks, inferredLinks, warnings };
}
