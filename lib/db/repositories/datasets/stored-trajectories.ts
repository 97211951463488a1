// Read trajectories back in native form (lossless: steps, recording, fork link, labels), for dataset building and
// export. The reading itself is the raw-SQL export reader (export-read/); this is its one-shot form.
import type { Db } from "../../client.ts";
import type { StoredTrajectory } from "../../../domain/curation/types.ts";
import { FULL_DEPTH, openExportReader, type ReadDepth } from "./export-read/index.ts";

export { openExportReader, type ExportReader, type ReadDepth, type VersionItemRow } from "./export-read/index.ts";

/** Trajectories by database id, in native form. Missing ids are absent from the map. */
export async function findStoredTrajectories(db: Db, ids: string[], depth: ReadDepth = FULL_DEPTH): Promise<Map<string, StoredTrajectory>> {
  if (!ids.length) return new Map();
  const reader = openExportReader(db);
  try {
    return await reader.trajectories(ids, depth);
  } finally {
    await reader.close();
  }
}
