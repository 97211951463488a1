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
  await vacuumFacetCells(db);
}

/**
 * A long import also refreshes them as it goes, each time the trajectories it wrote double (from 10,000): the
 * writer's own statements (fork links, count refreshes) are planned on them too. Without it the parents' recovery rate
 * was computed by ANDing each parent's attempts with every passed or failed trajectory (8 ms a parent at 2x10^5).
 */
export const nextStatisticsRefresh = (imported: number): number => Math.max(ANALYZE_AFTER_TRAJECTORIES, imported * 2);

export async function refreshStatisticsDuringBulkLoad(db: Db): Promise<void> {
  if (dialectOf(db) !== "postgresql") return;
  await db.$executeRawUnsafe(`ANALYZE "Trajectory", "ForkPoint", "FailureSignature"`);
  await vacuumFacetCells(db);
}

// Every batch rewrites a few thousand facet cells: without autovacuum their dead versions pile up (a million after a
// 10^6 import) and every facet read scans them. A plain VACUUM of this small table takes milliseconds and takes no lock
// that a writer waits on.
async function vacuumFacetCells(db: Db): Promise<void> {
  await db.$executeRawUnsafe(`VACUUM (ANALYZE) "TrajectoryFacetCell"`);
}
