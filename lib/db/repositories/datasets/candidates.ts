// Which trajectories become items: recovery attempts for segment items, labels for label rules, and the tasks of a
// version's items (for the leakage guard).
import type { Db } from "../../client.ts";
import type { HeldOut, TaskRef } from "../../../domain/curation/leakage.ts";

const CHUNK = 1_000;

async function chunked<T>(ids: string[], run: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await run(ids.slice(i, i + CHUNK))));
  return out;
}

/**
 * Passed recovery attempts among `ids` or forked from one of them, in the order of `ids` (an attempt follows its
 * parent when both match). These are the trajectories a recovery segment can be built from.
 */
export async function findPassedAttempts(db: Db, ids: string[]): Promise<string[]> {
  const rows = await chunked(ids, (part) =>
    db.trajectory.findMany({
      where: {
        outcome: "passed",
        parentId: { not: null },
        forkStepIndex: { not: null },
        OR: [{ id: { in: part } }, { parentId: { in: part } }],
      },
      select: { id: true, parentId: true, attemptIndex: true },
      orderBy: [{ attemptIndex: "asc" }, { id: "asc" }],
    }),
  );
  const order = new Map(ids.map((id, i) => [id, i]));
  const rank = (r: { id: string; parentId: string | null }) => Math.min(order.get(r.id) ?? Infinity, order.get(r.parentId!) ?? Infinity);
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  return unique
    .sort((a, b) => rank(a) - rank(b) || (a.attemptIndex ?? 0) - (b.attemptIndex ?? 0) || (a.id < b.id ? -1 : 1))
    .map((r) => r.id);
}

/** Which labels a label-rule condition reads. */
export interface LabelRowQuery {
  schemaId: string;
  /** Gold (adjudicated) labels instead of annotators' labels. */
  gold: boolean;
  targetType?: string;
  annotator?: string;
  /** Only labels on this queue's trajectories. */
  queueId?: string;
}

/** Labels of one schema (or its gold labels) with their target, for the label-rule matcher. */
export async function findLabelRows(db: Db, q: LabelRowQuery): Promise<{ trajectoryId: string; targetKey: string; value: string }[]> {
  const inQueue = q.queueId ? { trajectory: { queueItems: { some: { queueId: q.queueId } } } } : {};
  const select = { trajectoryId: true, targetKey: true, value: true } as const;
  if (q.gold)
    return db.goldLabel.findMany({
      where: { schemaId: q.schemaId, ...(q.targetType ? { targetType: q.targetType } : {}), ...inQueue },
      select,
      orderBy: { id: "asc" },
    });
  return db.annotation.findMany({
    where: {
      schemaId: q.schemaId,
      ...(q.targetType ? { targetType: q.targetType } : {}),
      ...(q.annotator ? { annotator: { name: q.annotator } } : {}),
      ...inQueue,
    },
    select,
    orderBy: { id: "asc" },
  });
}

/** Label schema ids by key; unknown keys are absent. */
export async function findSchemaIds(db: Db, keys: string[]): Promise<Map<string, string>> {
  const rows = await db.labelSchema.findMany({ where: { key: { in: keys } }, select: { id: true, key: true } });
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** A queue's id, labels per item and trajectories in queue order (by id or name); null when there is none. */
export async function findQueueItems(
  db: Db,
  idOrName: string,
): Promise<{ id: string; name: string; labelsPerItem: number; trajectoryIds: string[] } | null> {
  const q =
    (await db.annotationQueue.findUnique({ where: { name: idOrName }, select: { id: true, name: true, labelsPerItem: true } })) ??
    (await db.annotationQueue.findUnique({ where: { id: idOrName }, select: { id: true, name: true, labelsPerItem: true } }));
  if (!q) return null;
  const items = await db.queueItem.findMany({ where: { queueId: q.id }, orderBy: { position: "asc" }, select: { trajectoryId: true } });
  return { ...q, trajectoryIds: items.map((i) => i.trajectoryId) };
}

/** Task (benchmark + external id) of each trajectory, and of the parent for segment items. */
export async function findItemTasks(db: Db, trajectoryIds: string[]): Promise<TaskRef[]> {
  const rows = await chunked(trajectoryIds, (part) =>
    db.trajectory.findMany({ where: { id: { in: part } }, select: { task: { select: { benchmark: true, externalId: true } } } }),
  );
  return rows.map((r) => r.task);
}

export async function findExistingTrajectoryIds(db: Db, ids: string[]): Promise<Set<string>> {
  const rows = await chunked(ids, (part) => db.trajectory.findMany({ where: { id: { in: part } }, select: { id: true } }));
  return new Set(rows.map((r) => r.id));
}

export async function listHeldOut(db: Db): Promise<(HeldOut & { id: string; reason: string | null })[]> {
  return db.heldOutTask.findMany({
    orderBy: [{ benchmark: "asc" }, { externalId: "asc" }],
    select: { id: true, benchmark: true, externalId: true, reason: true },
  });
}

export async function addHeldOut(db: Db, list: HeldOut[], reason: string | null, createdById: string): Promise<number> {
  let added = 0;
  await db.$transaction(async (tx) => {
    for (const h of list) {
      const existing = await tx.heldOutTask.findUnique({ where: { benchmark_externalId: h } });
      if (existing) continue;
      await tx.heldOutTask.create({ data: { ...h, reason, createdById } });
      added++;
    }
  });
  return added;
}

export async function removeHeldOut(db: Db, list: HeldOut[]): Promise<number> {
  let removed = 0;
  for (const h of list) removed += (await db.heldOutTask.deleteMany({ where: h })).count;
  return removed;
}

/** Run ids named by id or name (CLI users type names); unknown names are returned separately. */
export async function resolveRunIds(db: Db, refs: string[]): Promise<{ ids: string[]; unknown: string[] }> {
  const rows = await db.run.findMany({ where: { OR: [{ id: { in: refs } }, { name: { in: refs } }] }, select: { id: true, name: true } });
  return { ids: rows.map((r) => r.id), unknown: refs.filter((x) => !rows.some((r) => r.id === x || r.name === x)) };
}

/** Task ids named by id, external id or name. */
export async function resolveTaskIds(db: Db, refs: string[]): Promise<{ ids: string[]; unknown: string[] }> {
  const rows = await db.task.findMany({
    where: { OR: [{ id: { in: refs } }, { externalId: { in: refs } }, { name: { in: refs } }] },
    select: { id: true, externalId: true, name: true },
  });
  return { ids: rows.map((r) => r.id), unknown: refs.filter((x) => !rows.some((r) => r.id === x || r.externalId === x || r.name === x)) };
}

export async function findParentIds(db: Db, attemptIds: string[]): Promise<string[]> {
  const rows = await chunked(attemptIds, (part) =>
    db.trajectory.findMany({ where: { id: { in: part }, parentId: { not: null } }, select: { parentId: true } }),
  );
  return [...new Set(rows.map((r) => r.parentId!))];
}
