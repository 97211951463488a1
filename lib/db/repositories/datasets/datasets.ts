// Datasets and their versions. A dataset's items live in versions: the latest one is the editable draft until it is
// frozen (frozenAt set); after that nothing changes it, and the next edit copies its items into a new draft.
// Every edit names the dataset revision it read; a stale revision is a CONFLICT, never a silent overwrite.
import { configOf, type Db, type Prisma } from "../../client.ts";
import { AppError } from "../../../errors.ts";
import type { ItemKind } from "../../../domain/curation/types.ts";
import { isUniqueViolation } from "../../unique-violation.ts";

type Tx = Prisma.TransactionClient;
const LONG_TX = { timeout: 120_000, maxWait: 10_000 };
const INSERT_BATCH = 1_000;

export interface DatasetSummary {
  id: string;
  name: string;
  description: string | null;
  itemKind: ItemKind;
  revision: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  /** The latest version: the draft, or the last frozen one when nothing changed since. */
  latest: VersionSummary | null;
  frozenCount: number;
}

export interface VersionSummary {
  id: string;
  version: number;
  itemCount: number;
  contentHash: string | null;
  frozenAt: string | null;
  manifest: string | null;
  note: string | null;
  createdAt: string;
}

export interface NewItem {
  trajectoryId: string;
  kind: ItemKind;
}

const toVersion = (v: {
  id: string;
  version: number;
  itemCount: number;
  contentHash: string;
  frozenAt: Date | null;
  manifest: string | null;
  note: string | null;
  createdAt: Date;
}): VersionSummary => ({
  id: v.id,
  version: v.version,
  itemCount: v.itemCount,
  contentHash: v.frozenAt ? v.contentHash : null,
  frozenAt: v.frozenAt?.toISOString() ?? null,
  manifest: v.manifest,
  note: v.note,
  createdAt: v.createdAt.toISOString(),
});

const VERSION_FIELDS = {
  id: true,
  version: true,
  itemCount: true,
  contentHash: true,
  frozenAt: true,
  manifest: true,
  note: true,
  createdAt: true,
} as const;

// Not the dataset's `rules` either (findDatasetRules): the same 100,000 ids, read by every export and dataset page.
const SUMMARY = {
  id: true,
  name: true,
  description: true,
  itemKind: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
  createdBy: { select: { name: true } },
  // Not the version's `filter`: a dataset made from a selection keeps up to 100,000 ids there (megabytes per read).
  versions: { orderBy: { version: "desc" }, take: 1, select: VERSION_FIELDS },
  _count: { select: { versions: { where: { frozenAt: { not: null } } } } },
} satisfies Prisma.DatasetSelect;

type SummaryRow = Prisma.DatasetGetPayload<{ select: typeof SUMMARY }>;
const toSummary = (d: SummaryRow): DatasetSummary => ({
  id: d.id,
  name: d.name,
  description: d.description,
  itemKind: d.itemKind as ItemKind,
  revision: d.revision,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
  createdBy: d.createdBy.name,
  latest: d.versions[0] ? toVersion(d.versions[0]) : null,
  frozenCount: d._count.versions,
});

/** The rules the dataset was built from (JSON text), to rebuild it or show them. */
export async function findDatasetRules(db: Db, datasetId: string): Promise<string | null> {
  return (await db.dataset.findUnique({ where: { id: datasetId }, select: { rules: true } }))?.rules ?? null;
}

export async function listDatasets(db: Db): Promise<DatasetSummary[]> {
  return (await db.dataset.findMany({ select: SUMMARY, orderBy: { updatedAt: "desc" } })).map(toSummary);
}

export async function findDatasetByName(db: Db, name: string): Promise<DatasetSummary | null> {
  const d = await db.dataset.findUnique({ where: { name }, select: SUMMARY });
  return d ? toSummary(d) : null;
}

export async function findDatasetById(db: Db, id: string): Promise<DatasetSummary | null> {
  const d = await db.dataset.findUnique({ where: { id }, select: SUMMARY });
  return d ? toSummary(d) : null;
}

export async function listVersions(db: Db, datasetId: string): Promise<VersionSummary[]> {
  return (await db.datasetVersion.findMany({ where: { datasetId }, orderBy: { version: "desc" } })).map(toVersion);
}

export async function findVersion(db: Db, datasetId: string, version: number): Promise<VersionSummary | null> {
  // Not `filter`: a version made from a selection keeps up to 100,000 ids there (3.5 MB read on every export of NAME@N).
  const v = await db.datasetVersion.findUnique({ where: { datasetId_version: { datasetId, version } }, select: VERSION_FIELDS });
  return v ? toVersion(v) : null;
}

async function insertItems(tx: Tx, versionId: string, items: NewItem[], from: number, labels?: (string | null)[]): Promise<void> {
  for (let i = 0; i < items.length; i += INSERT_BATCH) {
    await tx.datasetItem.createMany({
      data: items.slice(i, i + INSERT_BATCH).map((it, k) => ({
        datasetVersionId: versionId,
        position: from + i + k,
        trajectoryId: it.trajectoryId,
        kind: it.kind,
        labels: labels?.[i + k] ?? null,
      })),
    });
  }
}

/** A new dataset with a draft version 1 holding `items`. Name taken → CONFLICT. */
export async function insertDataset(
  db: Db,
  d: { name: string; description: string | null; itemKind: ItemKind; rules: string | null; createdById: string; items: NewItem[] },
): Promise<string> {
  try {
    return await db.$transaction(async (tx) => {
      const ds = await tx.dataset.create({
        data: { name: d.name, description: d.description, itemKind: d.itemKind, rules: d.rules, createdById: d.createdById },
      });
      const v = await tx.datasetVersion.create({
        data: { datasetId: ds.id, version: 1, contentHash: "", itemCount: d.items.length, filter: d.rules, createdById: d.createdById },
      });
      await insertItems(tx, v.id, d.items, 0);
      return ds.id;
    }, LONG_TX);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `a dataset named "${d.name}" already exists`);
    throw e;
  }
}

/** Claim the revision the caller read (or fail with CONFLICT) and return the draft version, creating it from the last frozen one. */
async function claimDraft(
  tx: Tx,
  datasetId: string,
  expectedRevision: number,
  actorId: string,
): Promise<{ id: string; itemCount: number }> {
  const claimed = await tx.dataset.updateMany({
    where: { id: datasetId, revision: expectedRevision },
    data: { revision: { increment: 1 } },
  });
  if (claimed.count === 0) {
    const exists = await tx.dataset.findUnique({ where: { id: datasetId }, select: { revision: true } });
    if (!exists) throw new AppError("NOT_FOUND", "dataset not found");
    throw new AppError(
      "CONFLICT",
      `the dataset was changed by someone else (revision ${exists.revision}, you had ${expectedRevision}); reload and try again`,
    );
  }
  const latest = await tx.datasetVersion.findFirst({ where: { datasetId }, orderBy: { version: "desc" } });
  if (latest && !latest.frozenAt) return { id: latest.id, itemCount: latest.itemCount };
  const draft = await tx.datasetVersion.create({
    data: {
      datasetId,
      version: (latest?.version ?? 0) + 1,
      contentHash: "",
      itemCount: latest?.itemCount ?? 0,
      filter: latest?.filter,
      createdById: actorId,
    },
  });
  if (latest) {
    // Copy the frozen items (position order) into the new draft; labels are captured again at the next freeze.
    const items = await tx.datasetItem.findMany({
      where: { datasetVersionId: latest.id },
      orderBy: { position: "asc" },
      select: { trajectoryId: true, kind: true },
    });
    await insertItems(tx, draft.id, items as NewItem[], 0);
  }
  return { id: draft.id, itemCount: latest?.itemCount ?? 0 };
}

/** Edit the draft: replace all items (rebuild from rules), or add/remove some. Returns the new revision. */
export async function editDraftItems(
  db: Db,
  e: {
    datasetId: string;
    expectedRevision: number;
    actorId: string;
    replace?: NewItem[];
    add?: NewItem[];
    remove?: string[];
    rules?: string | null;
  },
): Promise<number> {
  return db.$transaction(async (tx) => {
    const draft = await claimDraft(tx, e.datasetId, e.expectedRevision, e.actorId);
    if (e.replace) {
      await tx.datasetItem.deleteMany({ where: { datasetVersionId: draft.id } });
      await insertItems(tx, draft.id, e.replace, 0);
    }
    if (e.remove?.length) {
      for (let i = 0; i < e.remove.length; i += INSERT_BATCH)
        await tx.datasetItem.deleteMany({
          where: { datasetVersionId: draft.id, trajectoryId: { in: e.remove.slice(i, i + INSERT_BATCH) } },
        });
    }
    if (e.add?.length) {
      const present = new Set(
        (await tx.datasetItem.findMany({ where: { datasetVersionId: draft.id }, select: { trajectoryId: true } })).map(
          (r) => r.trajectoryId,
        ),
      );
      const fresh = e.add.filter((it) => !present.has(it.trajectoryId));
      const last = await tx.datasetItem.aggregate({ where: { datasetVersionId: draft.id }, _max: { position: true } });
      await insertItems(tx, draft.id, fresh, (last._max.position ?? -1) + 1);
    }
    const count = await tx.datasetItem.count({ where: { datasetVersionId: draft.id } });
    await tx.datasetVersion.update({
      where: { id: draft.id },
      data: { itemCount: count, ...(e.rules !== undefined ? { filter: e.rules } : {}) },
    });
    const ds = await tx.dataset.update({
      where: { id: e.datasetId },
      data: e.rules !== undefined ? { rules: e.rules } : {},
      select: { revision: true },
    });
    return ds.revision;
  }, LONG_TX);
}

/** Items of a version in position order, a page at a time (keyset on position). */
export async function findVersionItems(
  db: Db,
  versionId: string,
  afterPosition: number,
  take: number,
): Promise<{ position: number; trajectoryId: string; kind: ItemKind; labels: string | null }[]> {
  const rows = await db.datasetItem.findMany({
    where: { datasetVersionId: versionId, position: { gt: afterPosition } },
    orderBy: { position: "asc" },
    take,
    select: { position: true, trajectoryId: true, kind: true, labels: true },
  });
  return rows.map((r) => ({ ...r, kind: r.kind as ItemKind }));
}

/** Freeze the draft: store each item's labels (`itemLabels` by position; every other item gets none), the manifest and the hash. The draft must still be at `expectedRevision`. */
export async function freezeDraft(
  db: Db,
  f: {
    datasetId: string;
    versionId: string;
    expectedRevision: number;
    contentHash: string;
    manifest: string;
    itemLabels: Map<number, string>;
    note: string | null;
  },
): Promise<void> {
  const sqlite = configOf(db).provider === "sqlite";
  await db.$transaction(async (tx) => {
    const claimed = await tx.dataset.updateMany({
      where: { id: f.datasetId, revision: f.expectedRevision },
      data: { revision: { increment: 1 } },
    });
    if (claimed.count === 0) throw new AppError("CONFLICT", "the dataset changed while it was being frozen; reload and try again");
    const v = await tx.datasetVersion.updateMany({
      where: { id: f.versionId, frozenAt: null },
      data: { frozenAt: new Date(), contentHash: f.contentHash, manifest: f.manifest, note: f.note },
    });
    if (v.count === 0) throw new AppError("CONFLICT", "this version is already frozen");
    // Items without labels are captured as "[]", not left null, so a label added later is never read as captured.
    await tx.datasetItem.updateMany({ where: { datasetVersionId: f.versionId }, data: { labels: "[]" } });
    await setCapturedLabels(tx, sqlite, f.versionId, [...f.itemLabels]);
  }, LONG_TX);
}

/**
 * SQLite: the batch ([position, labels] pairs as one JSON array) is materialized first, so the plan walks the batch and
 * looks each item up by (version, position). Joined to json_each directly, SQLite walked the version's items and
 * scanned the whole batch for each — 10^5 items × 5,000 pairs per statement, a freeze that never finished.
 */
export const SQLITE_SET_CAPTURED_LABELS = `WITH v("position", "labels") AS MATERIALIZED (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)) UPDATE "DatasetItem" SET "labels" = v."labels" FROM v WHERE "DatasetItem"."datasetVersionId" = ? AND "DatasetItem"."position" = v."position"`;

/** Labels captured per item position, written a batch per statement (one UPDATE per item ran a 10^5 freeze past its transaction's limit on PostgreSQL). */
async function setCapturedLabels(tx: Tx, sqlite: boolean, versionId: string, entries: [number, string][]): Promise<void> {
  const BATCH = 5_000;
  for (let i = 0; i < entries.length; i += BATCH) {
    const part = entries.slice(i, i + BATCH);
    if (sqlite) {
      await tx.$executeRawUnsafe(SQLITE_SET_CAPTURED_LABELS, JSON.stringify(part), versionId);
    } else {
      await tx.$executeRawUnsafe(
        `UPDATE "DatasetItem" AS d SET "labels" = v.labels FROM unnest($1::int[], $2::text[]) AS v(position, labels) WHERE d."datasetVersionId" = $3 AND d."position" = v.position`,
        part.map((e) => e[0]),
        part.map((e) => e[1]),
        versionId,
      );
    }
  }
}

/** Items in one version and not in the other (by trajectory and kind). */
/** Items added and removed from one version to another; with no `from` (a first version) every item is added. */
export async function diffVersions(
  db: Db,
  fromVersionId: string | null,
  toVersionId: string,
): Promise<{ added: string[]; removed: string[] }> {
  const itemsOf = async (id: string | null) =>
    id ? db.datasetItem.findMany({ where: { datasetVersionId: id }, select: { trajectoryId: true, kind: true } }) : [];
  const [a, b] = await Promise.all([itemsOf(fromVersionId), itemsOf(toVersionId)]);
  const key = (r: { trajectoryId: string; kind: string }) => `${r.kind}:${r.trajectoryId}`;
  const inA = new Set(a!.map(key)),
    inB = new Set(b!.map(key));
  return {
    added: b!.filter((r) => !inA.has(key(r))).map((r) => r.trajectoryId),
    removed: a!.filter((r) => !inB.has(key(r))).map((r) => r.trajectoryId),
  };
}

/** Delete a dataset, its versions and items (cascade) and its export job rows, in one transaction — only if it is
 * still at `expectedRevision` (false otherwise, and nothing is deleted). */
export async function deleteDataset(db: Db, datasetId: string, expectedRevision: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const gone = await tx.dataset.deleteMany({ where: { id: datasetId, revision: expectedRevision } });
    if (gone.count === 0) return false;
    await tx.exportJob.deleteMany({ where: { datasetId } });
    return true;
  }, LONG_TX);
}
