// `reterm reindex-search`: rebuild the full-text search index from the steps (after an upgrade, or to repair it).
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { rebuildSearchIndex } from "../../lib/services/browse/search-trajectories.ts";
import { reindexFailureModes } from "../../lib/services/failure-modes/index.ts";
import { ProgressLine } from "../progress.ts";

export const REINDEX_HELP = `reindex-search               rebuild the full-text search index from the stored steps
  reindex-failure-modes        recompute the failure signatures of every trajectory (a database from before them)`;

export async function reindexCommand(): Promise<void> {
  await setupDatabase(getEnv().DATABASE_URL);
  const progress = new ProgressLine(undefined, "trajectories indexed");
  const r = await rebuildSearchIndex(await getCliContext(), { onProgress: (n) => progress.update(n) });
  progress.done();
  console.log(`Indexed ${r.trajectories.toLocaleString("en-US")} trajectories for search.`);
}

/** `reterm reindex-failure-modes`: failure signatures for trajectories imported before they existed. */
export async function reindexFailureModesCommand(): Promise<void> {
  await setupDatabase(getEnv().DATABASE_URL);
  const progress = new ProgressLine(undefined, "trajectories examined");
  const r = await reindexFailureModes(await getCliContext(), { onProgress: (n) => progress.update(n) });
  progress.done();
  console.log(
    `Examined ${r.trajectories.toLocaleString("en-US")} trajectories: ${r.signatures.toLocaleString("en-US")} failure signatures.`,
  );
}
