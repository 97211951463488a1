// After a bulk load, the query planner's statistics describe the tables as they were before it. PostgreSQL refreshes
// them by autovacuum, which may be off (it is on the project's bench machines) or run long after a load of a million
// rows; until then the planner costs the grown tables as near-empty. At 10^6 trajectories that made the search
// indexer read the 17 M-row Step table whole for every batch of 100 trajectories (~1,100 trajectories a minute;
// ~25,000 after ANALYZE, which took 2 s). SQLite keeps no statistics unless ANALYZE was run, and the app never runs it.
import type { Db } from "../client.ts";
import { dialectOf } from "../dialect.ts";

/** Imports of at least this many trajectories refresh the statistics before their settle phase. */
export const ANALYZE_AFTER_TRAJECTORIES = 10_000;

export async function refreshStatisticsAfterBulkLoad(db: Db): Promise<void> {
  if (dialectOf(db) !== "postgresql") return;
  await db.$executeRawUnsafe(`ANALYZE "Trajectory", "Step", "DetectedError", "ForkPoint", "Recording", "RecordingChunk"`);
}
