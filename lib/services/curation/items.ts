// Read a version's items back as ExportItems (trajectory, parent for segments, provenance), a batch at a time, so
// exports and freezing stream instead of holding the dataset in memory.
import type { Db } from "../../db/client.ts";
import { openExportReader, type ExportReader, type ReadDepth } from "../../db/repositories/datasets/stored-trajectories.ts";
import {
  capturedLabelsSchema,
  withLabels,
  type ExportLabel,
  type ItemKind,
  type Provenance,
  type StoredTrajectory,
} from "../../domain/curation/types.ts";
import type { ExportItem } from "../../exporters/types.ts";
import { AppError } from "../../errors.ts";

export const READ_BATCH = 200;

export interface VersionRef {
  dataset: string;
  versionId: string;
  /** Null for a draft. */
  version: number | null;
  contentHash: string | null;
  frozen: boolean;
}

export interface LoadedItem extends ExportItem {
  position: number;
  kind: ItemKind;
}

function provenance(ref: VersionRef, kind: ItemKind, t: StoredTrajectory, labels: ExportLabel[]): Provenance {
  const tr = t.trajectory;
  return {
    trajectoryId: t.dbId,
    externalId: tr.id && tr.id !== t.dbId ? tr.id : null,
    task: tr.task.id,
    benchmark: tr.task.benchmark,
    run: tr.run.name,
    kind,
    parentTrajectoryId: t.parentDbId,
    forkStep: tr.fork?.stepIndex ?? null,
    attemptIndex: tr.fork?.attemptIndex ?? null,
    outcome: tr.outcome,
    reward: tr.reward ?? null,
    labels: labels.map((l) => ({ schema: l.schema, annotator: l.annotator, target: l.targetType, value: l.value })),
    dataset: ref.dataset,
    version: ref.version,
    datasetHash: ref.contentHash,
  };
}

async function readBatch(
  reader: ExportReader,
  ref: VersionRef,
  after: number,
  batch: number,
  depth: ReadDepth,
): Promise<{ last: number; items: LoadedItem[] } | null> {
  const items = await reader.versionItems(ref.versionId, after, batch);
  if (!items.length) return null;
  const stored = await reader.trajectories(
    items.map((i) => i.trajectoryId),
    depth,
  );
  const parentIds = items
    .filter((i) => i.kind === "segment")
    .map((i) => stored.get(i.trajectoryId)?.parentDbId)
    .filter((x): x is string => !!x);
  const parents = await reader.trajectories(parentIds, depth);
  return {
    last: items.at(-1)!.position,
    items: items.map((it) => {
      const t = stored.get(it.trajectoryId);
      if (!t) throw new AppError("CONFLICT", `trajectory ${it.trajectoryId} of this dataset no longer exists`);
      const parent = it.kind === "segment" && t.parentDbId ? (parents.get(t.parentDbId) ?? null) : null;
      if (it.kind === "segment" && !parent)
        throw new AppError("CONFLICT", `recovery segment ${it.trajectoryId} has lost its parent trajectory`);
      // A frozen item never reads live labels: one frozen without labels has none (null: frozen before freezing
      // stored "[]" for it), whatever was labelled since.
      const labels = ref.frozen ? (it.labels !== null ? capturedLabelsSchema.parse(JSON.parse(it.labels)) : []) : t.labels;
      const item = withLabels(t, labels);
      return { position: it.position, kind: it.kind, item, parent, provenance: provenance(ref, it.kind, item, labels) };
    }),
  };
}

/**
 * Items of a version in position order. A frozen version's items carry the labels captured when it was frozen.
 * The next batch is read while the caller writes the current one (on PostgreSQL the query overlaps the writing).
 * One reader (raw SQL on the provider's driver) serves the whole pass and is closed when it ends or is abandoned.
 */
export async function* loadVersionItems(
  db: Db,
  ref: VersionRef,
  batch = READ_BATCH,
  depth: ReadDepth = { steps: true, recording: true },
): AsyncGenerator<LoadedItem[]> {
  const reader = openExportReader(db);
  let next: Promise<Awaited<ReturnType<typeof readBatch>>> | undefined;
  try {
    next = readBatch(reader, ref, -1, batch, depth);
    for (;;) {
      const current = await next;
      if (!current) return;
      next = readBatch(reader, ref, current.last, batch, depth);
      // If the caller stops early, the read ahead must not become an unhandled rejection.
      next.catch(() => undefined);
      yield current.items;
    }
  } finally {
    await next?.catch(() => undefined);
    await reader.close();
  }
}
