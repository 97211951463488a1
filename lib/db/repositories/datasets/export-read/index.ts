// The export read path: raw SQL per batch on the provider's own driver, straight into native objects.
// One reader per export (or per call of findStoredTrajectories); close it when done.
import { configOf, type Db } from "../../../client.ts";
import type { StoredTrajectory } from "../../../../domain/curation/types.ts";
import { PgRowSource } from "./postgres.ts";
import {
  FULL_DEPTH,
  readFrozenChunks,
  readTrajectories,
  readVersionItems,
  type FrozenChunkRow,
  type ReadDepth,
  type RowSource,
  type VersionItemRow,
} from "./read.ts";
import { SqliteRowSource } from "./sqlite.ts";
import { readExportTarget, readFrozenExportRow, type ExportTarget } from "./target.ts";
import type { FrozenExportView } from "../frozen-exports.ts";

export { FULL_DEPTH, type FrozenChunkRow, type ReadDepth, type VersionItemRow } from "./read.ts";
export type { ExportTarget } from "./target.ts";

export interface ExportReader {
  /** The dataset named `name` (with its latest version), the version numbered `version` and the latest frozen one. */
  target(name: string, version: number | undefined): Promise<ExportTarget | null>;
  /** The completion row of a version's stored export in `format`, or null. */
  frozenExport(versionId: string, format: string): Promise<FrozenExportView | null>;
  /** A version's items after `afterPosition`, in position order, at most `take`. */
  versionItems(versionId: string, afterPosition: number, take: number): Promise<VersionItemRow[]>;
  /** Trajectories by database id, in native form. Missing ids are absent from the map. */
  trajectories(ids: readonly string[], depth?: ReadDepth): Promise<Map<string, StoredTrajectory>>;
  /** Pieces `from` … `from + count - 1` of a frozen version's stored export, in order. */
  frozenChunks(versionId: string, format: string, from: number, count: number): Promise<FrozenChunkRow[]>;
  /** Ends the reader's transaction and connection; later calls do nothing. */
  close(): Promise<void>;
}

export function openExportReader(db: Db): ExportReader {
  const config = configOf(db);
  const src: RowSource & { close(): Promise<void> } =
    config.provider === "sqlite" ? new SqliteRowSource(config.file) : new PgRowSource(config.url);
  let closed: Promise<void> | undefined;
  return {
    target: (name, version) => readExportTarget(src, name, version),
    frozenExport: (versionId, format) => readFrozenExportRow(src, versionId, format),
    versionItems: (versionId, after, take) => readVersionItems(src, versionId, after, take),
    trajectories: (ids, depth = FULL_DEPTH) => readTrajectories(src, ids, depth),
    frozenChunks: (versionId, format, from, count) => readFrozenChunks(src, versionId, format, from, count),
    close: () => (closed ??= src.close()),
  };
}
