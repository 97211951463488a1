// One batch of trajectories read flat: one query per table over the id list, rows streamed as arrays straight into
// the native objects (no per-row Prisma objects, no intermediate row objects). The provider supplies the row source.
import type { ItemKind, StoredTrajectory } from "../../../../domain/curation/types.ts";
import { addChunk, labelOf, pendingOf, recordingOf, stepOf, storedOf, type CellReader, type Pending } from "./assemble.ts";
import {
  ANNOTATION_COLUMNS,
  ANNOTATION_FROM,
  BASE_COLUMNS,
  BASE_FROM,
  CHUNK_COLUMNS,
  CHUNK_FROM,
  ITEM_COLUMNS,
  RECORDING_COLUMNS,
  STEP_COLUMNS,
} from "./columns.ts";

export type Cells = readonly unknown[];

/** What an export needs: chat formats skip recordings, label formats skip steps too. */
export interface ReadDepth {
  steps: boolean;
  recording: boolean;
}
export const FULL_DEPTH: ReadDepth = { steps: true, recording: true };

export interface VersionItemRow {
  position: number;
  trajectoryId: string;
  kind: ItemKind;
  /** Labels captured at freeze (JSON), null for a draft. */
  labels: string | null;
}

/** A provider's way of running a query: `?` placeholders, `IDS` marks where the id list goes. */
export interface RowSource {
  cells: CellReader;
  /** SQL for "column is one of the ids bound at this placeholder". */
  inIds(column: string): string;
  /** The id list as the placeholder of `inIds` takes it. */
  idsArg(ids: readonly string[]): unknown;
  /**
   * Runs `sql`, calling `onRow` with each row (an array of cells, in SELECT order), in order. `wide` marks rows that
   * can be large (recording chunks: up to 64 KB of events each), so a provider that fetches in blocks takes fewer.
   */
  each(sql: string, args: readonly unknown[], onRow: (row: Cells) => void, wide?: boolean): Promise<void>;
  /** Runs a query with a few small rows (lookups), without a cursor: every row, in order. */
  all(sql: string, args: readonly unknown[]): Promise<Cells[]>;
}

/** One stored piece of a frozen version's export (FrozenExportChunk): compressed bytes and what they expand to. */
export interface FrozenChunkRow {
  seq: number;
  rowsEnd: number;
  size: number;
  data: Buffer;
}

/** Pieces `from` … `from + count - 1` of a stored export, in order (both drivers hand BLOB / bytea cells as Buffers). */
export async function readFrozenChunks(
  src: RowSource,
  versionId: string,
  format: string,
  from: number,
  count: number,
): Promise<FrozenChunkRow[]> {
  const out: FrozenChunkRow[] = [];
  await src.each(
    `SELECT "seq", "rowsEnd", "size", "data" FROM "FrozenExportChunk" WHERE "versionId" = ? AND "format" = ? AND "seq" >= ? AND "seq" < ? ORDER BY "seq"`,
    [versionId, format, from, from + count],
    (r) => {
      out.push({ seq: Number(r[0]), rowsEnd: Number(r[1]), size: Number(r[2]), data: r[3] as Buffer });
    },
    true,
  );
  return out;
}

export async function readVersionItems(src: RowSource, versionId: string, afterPosition: number, take: number): Promise<VersionItemRow[]> {
  const out: VersionItemRow[] = [];
  await src.each(
    `SELECT ${ITEM_COLUMNS.join(", ")} FROM "DatasetItem" WHERE "datasetVersionId" = ? AND "position" > ? ORDER BY "position" LIMIT ?`,
    [versionId, afterPosition, take],
    (r) => {
      out.push({ position: r[0] as number, trajectoryId: r[1] as string, kind: r[2] as ItemKind, labels: r[3] as string | null });
    },
  );
  return out;
}

/** Trajectories by database id, in native form (lossless: steps, recording, fork link, labels). Missing ids are absent. */
export async function readTrajectories(src: RowSource, ids: readonly string[], depth: ReadDepth): Promise<Map<string, StoredTrajectory>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const c = src.cells;
  const arg = [src.idsArg(unique)];
  const pending = new Map<string, Pending>();
  await src.each(
    `SELECT ${BASE_COLUMNS.join(", ")} FROM ${BASE_FROM} WHERE ${src.inIds(`t."id"`)}`,
    arg,
    (r) => void pending.set(r[0] as string, pendingOf(r)),
  );
  if (!pending.size) return new Map();
  // Rows come grouped by trajectory (ORDER BY), so the owner is looked up once per trajectory, not per row.
  let last: Pending | undefined;
  let lastId: unknown;
  const owner = (id: unknown) => (id === lastId ? last : ((lastId = id), (last = pending.get(id as string))));
  if (depth.steps) {
    await src.each(
      `SELECT ${STEP_COLUMNS.join(", ")} FROM "Step" s WHERE ${src.inIds(`s."trajectoryId"`)} ORDER BY s."trajectoryId", s."index"`,
      arg,
      (r) => void owner(r[0])?.steps.push(stepOf(r, c)),
    );
  }
  await src.each(
    `SELECT ${ANNOTATION_COLUMNS.join(", ")} FROM ${ANNOTATION_FROM} WHERE ${src.inIds(`a."trajectoryId"`)} ORDER BY a."id"`,
    arg,
    (r) => void pending.get(r[0] as string)?.labels.push(labelOf(r, c)),
  );
  if (depth.recording) {
    await src.each(`SELECT ${RECORDING_COLUMNS.join(", ")} FROM "Recording" rc WHERE ${src.inIds(`rc."trajectoryId"`)}`, arg, (r) => {
      const p = pending.get(r[0] as string);
      if (p) p.recording = recordingOf(r);
    });
    await src.each(
      `SELECT ${CHUNK_COLUMNS.join(", ")} FROM ${CHUNK_FROM} WHERE ${src.inIds(`rc."trajectoryId"`)} ORDER BY rc."trajectoryId", c."seq"`,
      arg,
      (r) => {
        const p = owner(r[0]);
        if (p?.recording) addChunk(p, r[1] as string);
      },
      true,
    );
  }
  const out = new Map<string, StoredTrajectory>();
  for (const [id, p] of pending) out.set(id, storedOf(p, c));
  return out;
}
