// Annotation queues: items drawn from a table filter, assignees, and slots (one annotator's place on one item).
// "Next item" is race-safe without locks: a slot number is unique per item, so of two annotators inserting the same
// place one gets a unique violation and moves on; an expired reservation is taken over by a conditional update.
// Under contention each annotator tries the candidate items in its own random order (see ReserveStrategy).
import type { Db } from "../../client.ts";
import { isUniqueViolation } from "../../unique-violation.ts";
import { dialectOf } from "../../dialect.ts";
import { reserveNextSkipLocked } from "./reserve-pg.ts";

export interface QueueView {
  id: string;
  name: string;
  description: string | null;
  filter: string;
  schemaKeys: string[];
  labelsPerItem: number;
  blind: boolean;
  reservationMinutes: number;
  itemCount: number;
  createdAt: string;
  assignees: { id: string; name: string }[];
}

export interface NewQueue {
  name: string;
  description: string | null;
  filter: string;
  schemaKeys: string[];
  labelsPerItem: number;
  blind: boolean;
  reservationMinutes: number;
  createdById: string;
  assigneeIds: string[];
  trajectoryIds: string[];
}

const queueSelect = {
  id: true,
  name: true,
  description: true,
  filter: true,
  schemaKeys: true,
  labelsPerItem: true,
  blind: true,
  reservationMinutes: true,
  itemCount: true,
  createdAt: true,
  assignees: { select: { user: { select: { id: true, name: true } } } },
} as const;

function toView(q: {
  id: string;
  name: string;
  description: string | null;
  filter: string;
  schemaKeys: string;
  labelsPerItem: number;
  blind: boolean;
  reservationMinutes: number;
  itemCount: number;
  createdAt: Date;
  assignees: { user: { id: string; name: string } }[];
}): QueueView {
  return {
    ...q,
    schemaKeys: JSON.parse(q.schemaKeys) as string[],
    createdAt: q.createdAt.toISOString(),
    assignees: q.assignees.map((a) => a.user).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const CHUNK = 2000;

/** Queue, items (in the order given, duplicates already removed) and assignees in one transaction. */
export async function insertQueue(db: Db, q: NewQueue): Promise<QueueView> {
  const id = await db.$transaction(
    async (tx) => {
      const created = await tx.annotationQueue.create({
        data: {
          name: q.name,
          description: q.description,
          filter: q.filter,
          schemaKeys: JSON.stringify(q.schemaKeys),
          labelsPerItem: q.labelsPerItem,
          blind: q.blind,
          reservationMinutes: q.reservationMinutes,
          itemCount: q.trajectoryIds.length,
          createdById: q.createdById,
        },
        select: { id: true },
      });
      for (let i = 0; i < q.trajectoryIds.length; i += CHUNK) {
        await tx.queueItem.createMany({
          data: q.trajectoryIds.slice(i, i + CHUNK).map((trajectoryId, j) => ({ queueId: created.id, position: i + j, trajectoryId })),
        });
      }
      if (q.assigneeIds.length)
        await tx.queueAssignee.createMany({ data: q.assigneeIds.map((userId) => ({ queueId: created.id, userId })) });
      return created.id;
    },
    { timeout: 120_000 },
  );
  return (await findQueue(db, id))!;
}

export async function findQueue(db: Db, idOrName: string): Promise<QueueView | null> {
  const q =
    (await db.annotationQueue.findUnique({ where: { id: idOrName }, select: queueSelect })) ??
    (await db.annotationQueue.findUnique({ where: { name: idOrName }, select: queueSelect }));
  return q ? toView(q) : null;
}

export async function listQueues(db: Db, opts: { assigneeId?: string } = {}): Promise<QueueView[]> {
  const rows = await db.annotationQueue.findMany({
    where: opts.assigneeId ? workableBy(opts.assigneeId) : {},
    orderBy: { createdAt: "desc" },
    select: queueSelect,
  });
  return rows.map(toView);
}

/** Assigned to the user, or open to everyone who may label (a queue without assignees). */
const workableBy = (userId: string) => ({ OR: [{ assignees: { some: { userId } } }, { assignees: { none: {} } }] });

export async function isAssignee(db: Db, queueId: string, userId: string): Promise<boolean> {
  return (await db.annotationQueue.count({ where: { id: queueId, ...workableBy(userId) } })) > 0;
}

/** True when the trajectory is in a non-blind queue the user is assigned to (they may see co-annotators' labels). */
export async function isInOpenQueueOf(db: Db, trajectoryId: string, userId: string): Promise<boolean> {
  const n = await db.queueItem.count({ where: { trajectoryId, queue: { blind: false, ...workableBy(userId) } } });
  return n > 0;
}

export interface SlotView {
  slotId: string;
  queueId: string;
  itemId: string;
  position: number;
  trajectoryId: string;
  expiresAt: string | null;
}

const slotSelect = {
  id: true,
  queueId: true,
  itemId: true,
  expiresAt: true,
  item: { select: { position: true, trajectoryId: true } },
} as const;
type SlotRow = { id: string; queueId: string; itemId: string; expiresAt: Date | null; item: { position: number; trajectoryId: string } };
const slotView = (s: SlotRow): SlotView => ({
  slotId: s.id,
  queueId: s.queueId,
  itemId: s.itemId,
  position: s.item.position,
  trajectoryId: s.item.trajectoryId,
  expiresAt: s.expiresAt?.toISOString() ?? null,
});

/** The annotator's live reservation in this queue, if any (asking "next" twice returns the same item). */
export async function findActiveReservation(db: Db, queueId: string, annotatorId: string, now: Date): Promise<SlotView | null> {
  const s = await db.queueSlot.findFirst({
    where: { queueId, annotatorId, status: "reserved", expiresAt: { gt: now } },
    orderBy: { createdAt: "asc" },
    select: slotSelect,
  });
  return s ? slotView(s) : null;
}

/**
 * How "next item" picks among the open items of a candidate page:
 *  - "spread" (default): every annotator tries the page's items in their own random order, so 50 annotators asking
 *    at once each land on a different item at the first try instead of all inserting into the same first free place;
 *  - "first": strictly by position — the old behaviour, kept so bench/annotation.ts can measure both in one run;
 *  - "skip-locked" (PostgreSQL's default): one statement that locks the first open item with SKIP LOCKED
 *    (reserve-pg.ts), so concurrent annotators never collide on a place.
 * Expired reservations are taken over first in both, oldest work first, so abandoned items are finished before new
 * ones are started.
 */
export type ReserveStrategy = "spread" | "first" | "skip-locked";

/** Fisher–Yates on a copy: the order one annotator tries a page's items in. */
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Reserve an item this annotator has not touched that still has a free place: a reservation that expired (taken
 * over by a conditional update), else a slot number never used (a unique index makes a concurrent double insert
 * fail for one of them, who moves on). Candidates come a page at a time by position. Null when the queue holds
 * nothing more for them.
 */
export async function reserveNext(
  db: Db,
  queueId: string,
  annotatorId: string,
  labelsPerItem: number,
  now: Date,
  expiresAt: Date,
  strategy?: ReserveStrategy,
): Promise<SlotView | null> {
  const postgres = dialectOf(db) === "postgresql";
  if (strategy === "skip-locked" || (strategy === undefined && postgres)) {
    if (!postgres) throw new Error("the skip-locked reserve needs PostgreSQL");
    try {
      const id = await reserveNextSkipLocked(db, queueId, annotatorId, labelsPerItem, now, expiresAt);
      if (id) return slotView(await db.queueSlot.findUniqueOrThrow({ where: { id }, select: slotSelect }));
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    // Null can also mean every open item was locked by a concurrent reservation at that instant, and the statement's
    // snapshot may miss a place taken a moment before (the unique index then refused it): the page-by-page path
    // below decides both cases exactly, so the fast path never turns "busy" into "nothing left" or into an error.
    strategy = "spread";
  }
  const PAGE = 100;
  let after = -1;
  for (;;) {
    const items = await db.queueItem.findMany({
      where: { queueId, doneCount: { lt: labelsPerItem }, position: { gt: after }, slots: { none: { annotatorId } } },
      orderBy: { position: "asc" },
      take: PAGE,
      select: {
        id: true,
        position: true,
        slots: { where: { slot: { not: null } }, select: { id: true, slot: true, status: true, expiresAt: true } },
      },
    });
    for (const item of items) {
      for (const s of item.slots) {
        if (s.status !== "reserved" || !s.expiresAt || s.expiresAt > now) continue;
        try {
          const n = await db.queueSlot.updateMany({
            where: { id: s.id, status: "reserved", expiresAt: { lte: now } },
            data: { annotatorId, expiresAt },
          });
          if (n.count === 1) return slotView(await db.queueSlot.findUniqueOrThrow({ where: { id: s.id }, select: slotSelect }));
        } catch (e) {
          if (!isUniqueViolation(e)) throw e; // this annotator holds another slot of the item (cannot happen: filtered)
        }
      }
    }
    for (const item of strategy === "spread" ? shuffled(items) : items) {
      const used = new Set(item.slots.map((s) => s.slot));
      for (let slot = 0; slot < labelsPerItem; slot++) {
        if (used.has(slot)) continue;
        try {
          const s = await db.queueSlot.create({
            data: { queueId, itemId: item.id, slot, annotatorId, status: "reserved", expiresAt },
            select: slotSelect,
          });
          return slotView(s);
        } catch (e) {
          if (!isUniqueViolation(e)) throw e;
          continue; // someone took this place first: try the next place (then the next item)
        }
      }
    }
    if (items.length < PAGE) return null;
    after = items[items.length - 1]!.position;
  }
}

export async function findSlot(db: Db, slotId: string): Promise<(SlotView & { annotatorId: string; status: string }) | null> {
  const s = await db.queueSlot.findUnique({ where: { id: slotId }, select: { ...slotSelect, annotatorId: true, status: true } });
  return s ? { ...slotView(s), annotatorId: s.annotatorId, status: s.status } : null;
}

/** Mark the annotator's reservation done (even if it expired, as long as nobody took it over). False otherwise. */
export async function completeSlot(db: Db, slotId: string, annotatorId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const n = await tx.queueSlot.updateMany({
      where: { id: slotId, annotatorId, status: "reserved" },
      data: { status: "done", expiresAt: null },
    });
    if (n.count === 0) return false;
    const s = await tx.queueSlot.findUniqueOrThrow({ where: { id: slotId }, select: { itemId: true } });
    await tx.queueItem.update({ where: { id: s.itemId }, data: { doneCount: { increment: 1 } } });
    return true;
  });
}

/** The annotator's live reservations in this queue, oldest first (the current item and the one reserved ahead). */
export async function listActiveReservations(db: Db, queueId: string, annotatorId: string, now: Date): Promise<SlotView[]> {
  const rows = await db.queueSlot.findMany({
    where: { queueId, annotatorId, status: "reserved", expiresAt: { gt: now } },
    orderBy: { createdAt: "asc" },
    take: 10,
    select: slotSelect,
  });
  return rows.map(slotView);
}

/** Extend a live reservation (the annotator is working on it: an idle timer, not a wall clock). */
export async function touchSlot(db: Db, slotId: string, annotatorId: string, expiresAt: Date): Promise<boolean> {
  const n = await db.queueSlot.updateMany({ where: { id: slotId, annotatorId, status: "reserved" }, data: { expiresAt } });
  return n.count === 1;
}

/** Undo "done": the annotator's finished place is reserved by them again and the item counts one place less. */
export async function reopenSlot(db: Db, slotId: string, annotatorId: string, expiresAt: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const n = await tx.queueSlot.updateMany({
      where: { id: slotId, annotatorId, status: "done" },
      data: { status: "reserved", expiresAt },
    });
    if (n.count === 0) return false;
    const s = await tx.queueSlot.findUniqueOrThrow({ where: { id: slotId }, select: { itemId: true } });
    await tx.queueItem.update({ where: { id: s.itemId }, data: { doneCount: { decrement: 1 } } });
    return true;
  });
}

/** Give the place back (slot = null) and remember the reason; the item is not offered to this annotator again. */
export async function skipSlot(db: Db, slotId: string, annotatorId: string, reason: string): Promise<boolean> {
  const n = await db.queueSlot.updateMany({
    where: { id: slotId, annotatorId, status: "reserved" },
    data: { status: "skipped", slot: null, expiresAt: null, skipReason: reason },
  });
  return n.count === 1;
}

export interface QueueProgress {
  items: number;
  places: number;
  done: number;
  skipped: number;
  reserved: number;
  perAnnotator: { annotatorId: string; name: string; done: number; skipped: number; reserved: number }[];
}

export async function queueProgress(db: Db, queueId: string, now: Date): Promise<QueueProgress> {
  const q = await db.annotationQueue.findUniqueOrThrow({ where: { id: queueId }, select: { itemCount: true, labelsPerItem: true } });
  const groups = await db.queueSlot.groupBy({
    by: ["annotatorId", "status"],
    where: { queueId, OR: [{ status: { not: "reserved" } }, { expiresAt: { gt: now } }] },
    _count: { _all: true },
  });
  const users = new Map(
    (
      await db.user.findMany({ where: { id: { in: [...new Set(groups.map((g) => g.annotatorId))] } }, select: { id: true, name: true } })
    ).map((u) => [u.id, u.name]),
  );
  const per = new Map<string, QueueProgress["perAnnotator"][number]>();
  for (const g of groups) {
    const row = per.get(g.annotatorId) ?? {
      annotatorId: g.annotatorId,
      name: users.get(g.annotatorId) ?? g.annotatorId,
      done: 0,
      skipped: 0,
      reserved: 0,
    };
    if (g.status === "done" || g.status === "skipped" || g.status === "reserved") row[g.status] += g._count._all;
    per.set(g.annotatorId, row);
  }
  const perAnnotator = [...per.values()].sort((a, b) => a.name.localeCompare(b.name));
  const sum = (k: "done" | "skipped" | "reserved") => perAnnotator.reduce((s, r) => s + r[k], 0);
  return {
    items: q.itemCount,
    places: q.itemCount * q.labelsPerItem,
    done: sum("done"),
    skipped: sum("skipped"),
    reserved: sum("reserved"),
    perAnnotator,
  };
}

/** Ratings of one schema on a queue's trajectories (agreement), with annotator names. */
/** One stored rating with what names its target: kind, steps and the trajectory's task. */
export interface QueueRating {
  targetKey: string;
  targetType: string;
  stepStart: number | null;
  stepEnd: number | null;
  trajectoryId: string;
  taskName: string;
  annotatorName: string;
  value: string;
}

export async function loadQueueRatings(db: Db, schemaId: string, queueId?: string): Promise<QueueRating[]> {
  const rows = await db.annotation.findMany({
    where: { schemaId, ...(queueId ? { trajectory: { queueItems: { some: { queueId } } } } : {}) },
    select: {
      targetKey: true,
      targetType: true,
      stepStart: true,
      stepEnd: true,
      trajectoryId: true,
      value: true,
      annotator: { select: { name: true } },
      trajectory: { select: { task: { select: { name: true } } } },
    },
  });
  return rows.map((r) => ({
    targetKey: r.targetKey,
    targetType: r.targetType,
    stepStart: r.stepStart,
    stepEnd: r.stepEnd,
    trajectoryId: r.trajectoryId,
    taskName: r.trajectory.task.name,
    value: r.value,
    annotatorName: r.annotator.name,
  }));
}

/** Skip reasons of a queue (newest first) for its page. */
export async function listSkips(
  db: Db,
  queueId: string,
  limit = 50,
): Promise<{ trajectoryId: string; annotator: string; reason: string | null; at: string }[]> {
  const rows = await db.queueSlot.findMany({
    where: { queueId, status: "skipped" },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: { skipReason: true, updatedAt: true, item: { select: { trajectoryId: true } }, annotator: { select: { name: true } } },
  });
  return rows.map((r) => ({
    trajectoryId: r.item.trajectoryId,
    annotator: r.annotator.name,
    reason: r.skipReason,
    at: r.updatedAt.toISOString(),
  }));
}

/** The schemas (by key) the annotator has labelled on a trajectory: "done" needs one label of each queue schema. */
export async function labelledSchemaKeys(db: Db, trajectoryId: string, annotatorId: string): Promise<Set<string>> {
  const rows = await db.annotation.findMany({ where: { trajectoryId, annotatorId }, select: { schema: { select: { key: true } } } });
  return new Set(rows.map((r) => r.schema.key));
}
