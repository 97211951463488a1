import { authorize, type ServiceContext } from "../context.ts";
import { importTrajectories, type ImportRecord, type ImportReport } from "../import/import-trajectories.ts";
import { generateTrajectories } from "../../generator/generate.ts";
import { countTrajectories } from "../../db/repositories/stats.ts";

/**
 * Training steps `npm start`'s demo evaluates the trained runs at, so the training-progress chart shows lines (three
 * checkpoints per model and method) rather than one dot per series. Other seeds (tests, e2e) pass their own.
 */
export const DEMO_CHECKPOINTS: readonly number[] = [100, 200, 400];

/**
 * Load generated demo trajectories. Idempotent: generated ids are stable for a seed, so running it twice
 * imports nothing new. With `onlyIfEmpty`, does nothing when the database already holds trajectories.
 */
export async function seedDemo(
  ctx: ServiceContext,
  opts: {
    count: number;
    seed?: number;
    checkpoints?: readonly number[];
    onlyIfEmpty?: boolean;
    /** False for a bulk build that rebuilds the search index once afterwards (reindexSearch). */
    indexSearch?: boolean;
    onProgress?: (r: ImportReport) => void;
  },
): Promise<ImportReport | null> {
  authorize(ctx, "trajectory:import");
  if (opts.onlyIfEmpty && (await countTrajectories(ctx.db)) > 0) return null;
  function* records(): Generator<ImportRecord> {
    for (const t of generateTrajectories({
      count: opts.count,
      seed: opts.seed,
      checkpoints: opts.checkpoints ? [...opts.checkpoints] : undefined,
    })) {
      yield { ok: true, value: { trajectory: t, sourceFormat: "generator" }, file: "generator" };
    }
  }
  return importTrajectories(ctx, records(), { origin: "seed", indexSearch: opts.indexSearch, onProgress: opts.onProgress });
}
