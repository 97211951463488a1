// An annotator working through a queue: "next" reserves an item (reservations expire), "done" finishes it once every
// schema of the queue has a label from them, "skip" gives the place back with a reason.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import {
  completeSlot,
  findActiveReservation,
  findSlot,
  labelledSchemaKeys,
  listActiveReservations,
  reopenSlot,
  reserveNext,
  skipSlot,
  touchSlot,
  type ReserveStrategy,
  type SlotView,
} from "../../db/repositories/annotation/queues.ts";
import { findLabel, findTargetFacts, type LabelView } from "../../db/repositories/annotation/labels.ts";
import { openQueue } from "./manage-queues.ts";
import { createLabel, deleteLabel, updateLabel } from "./save-label.ts";

/** `strategy` is for bench/annotation.ts (before/after in one run); callers keep the default. */
export async function nextQueueItem(
  ctx: ServiceContext,
  queueIdOrName: string,
  now = new Date(),
  strategy?: ReserveStrategy,
): Promise<SlotView | null> {
  authorize(ctx, "annotation:write");
  const queue = await openQueue(ctx, queueIdOrName);
  const held = await findActiveReservation(ctx.db, queue.id, ctx.actor.id, now);
  if (held) return held;
  const expiresAt = new Date(now.getTime() + queue.reservationMinutes * 60_000);
  const reserved = await reserveNext(ctx.db, queue.id, ctx.actor.id, queue.labelsPerItem, now, expiresAt, strategy);
  // Nothing free can mean this annotator's own reserve-ahead (made as the page opened; a fast Enter races it) took the
  // last item after the check above: hand that one over rather than end the queue while they hold an item.
  return reserved ?? (await findActiveReservation(ctx.db, queue.id, ctx.actor.id, now));
}

async function ownSlot(ctx: ServiceContext, slotId: string) {
  const slot = await findSlot(ctx.db, slotId);
  if (!slot) throw new AppError("NOT_FOUND", `no reservation ${slotId}`);
  if (slot.annotatorId !== ctx.actor.id)
    throw new AppError("CONFLICT", "your reservation expired and another annotator took this item; ask for the next one");
  if (slot.status !== "reserved") throw new AppError("CONFLICT", `this item is already ${slot.status}`);
  return slot;
}

export async function completeQueueItem(ctx: ServiceContext, slotId: string): Promise<void> {
  authorize(ctx, "annotation:write");
  const slot = await ownSlot(ctx, slotId);
  const queue = await openQueue(ctx, slot.queueId);
  const have = await labelledSchemaKeys(ctx.db, slot.trajectoryId, ctx.actor.id);
  const missing = queue.schemaKeys.filter((k) => !have.has(k));
  if (missing.length) throw new AppError("INVALID_INPUT", `label ${missing.join(" and ")} before finishing this item`);
  if (!(await completeSlot(ctx.db, slotId, ctx.actor.id)))
    throw new AppError("CONFLICT", "your reservation expired and another annotator took this item");
}

export const skipSchema = z.object({ reason: z.string().trim().min(1, "say why you skip").max(500) });

export async function skipQueueItem(ctx: ServiceContext, slotId: string, raw: unknown): Promise<void> {
  authorize(ctx, "annotation:write");
  const { reason } = skipSchema.parse(raw);
  await ownSlot(ctx, slotId);
  if (!(await skipSlot(ctx.db, slotId, ctx.actor.id, reason)))
    throw new AppError("CONFLICT", "your reservation expired and another annotator took this item");
}

/** The actor's own live reservation `slotId` in the queue (a reload opens the same item), else null. */
export async function openQueueItem(
  ctx: ServiceContext,
  queueIdOrName: string,
  slotId: string,
  now = new Date(),
): Promise<SlotView | null> {
  authorize(ctx, "annotation:write");
  const queue = await openQueue(ctx, queueIdOrName);
  const slot = await findSlot(ctx.db, slotId);
  if (!slot || slot.queueId !== queue.id || slot.annotatorId !== ctx.actor.id || slot.status !== "reserved") return null;
  if (slot.expiresAt && new Date(slot.expiresAt) <= now) {
    // Expired but nobody took it over: the annotator is back, so it is theirs again.
    if (!(await touchSlot(ctx.db, slotId, ctx.actor.id, new Date(now.getTime() + queue.reservationMinutes * 60_000)))) return null;
  }
  return slot;
}

/**
 * The item after `currentSlotId`, reserved now so the browser can fetch it while the current one is labelled: a
 * second live reservation of the actor's if there is one, else a new one. Null when the queue holds nothing more.
 */
export async function reserveAhead(
  ctx: ServiceContext,
  queueIdOrName: string,
  currentSlotId: string,
  now = new Date(),
): Promise<SlotView | null> {
  authorize(ctx, "annotation:write");
  const queue = await openQueue(ctx, queueIdOrName);
  const held = (await listActiveReservations(ctx.db, queue.id, ctx.actor.id, now)).find((s) => s.slotId !== currentSlotId);
  if (held) return held;
  return reserveNext(ctx.db, queue.id, ctx.actor.id, queue.labelsPerItem, now, new Date(now.getTime() + queue.reservationMinutes * 60_000));
}

export interface QueueLabelInput {
  /** Change this label (the annotator's own, at this version) instead of creating one. */
  id?: string;
  version?: number;
  trajectory: string;
  schema: string;
  value: string;
  target?: unknown;
  comment?: string | null;
}

export interface QueueSubmission {
  label: LabelView;
  previous: { value: string; comment: string | null } | null;
  /** The item is finished (every schema of the queue labelled); `next` is the item after it, null when none is left. */
  done: boolean;
  next: SlotView | null;
}

/** Save a label from a queue item and, when that finishes the item, complete it and reserve the next: one round trip. */
export async function submitQueueLabel(
  ctx: ServiceContext,
  slotId: string,
  input: QueueLabelInput,
  opts: { queue?: string; now?: Date } = {},
): Promise<QueueSubmission> {
  authorize(ctx, "annotation:write");
  const now = opts.now ?? new Date();
  const slot = await ownSlot(ctx, slotId);
  const queue = await openQueue(ctx, slot.queueId);
  if (opts.queue !== undefined && (await openQueue(ctx, opts.queue)).id !== queue.id)
    throw new AppError("INVALID_INPUT", `slot: ${slotId} is not a reservation of queue "${opts.queue}"`);
  let label: LabelView;
  let previous: QueueSubmission["previous"] = null;
  const before = input.id ? await findLabel(ctx.db, input.id) : null;
  const trajectoryId = input.id ? before?.trajectoryId : (await findTargetFacts(ctx.db, input.trajectory))?.id;
  // Checked before writing: a label for another trajectory must not be left behind by a refused submission.
  if (trajectoryId !== slot.trajectoryId)
    throw new AppError("INVALID_INPUT", "trajectory: this label is not on the queue item's trajectory");
  if (input.id) {
    previous = before ? { value: before.value, comment: before.comment } : null;
    label = await updateLabel(ctx, { id: input.id, version: input.version, value: input.value, comment: input.comment ?? null });
  } else {
    label = await createLabel(ctx, {
      trajectory: input.trajectory,
      schema: input.schema,
      value: input.value,
      target: input.target,
      comment: input.comment ?? null,
    });
  }
  const have = await labelledSchemaKeys(ctx.db, slot.trajectoryId, ctx.actor.id);
  if (queue.schemaKeys.some((k) => !have.has(k))) {
    await touchSlot(ctx.db, slotId, ctx.actor.id, new Date(now.getTime() + queue.reservationMinutes * 60_000));
    return { label, previous, done: false, next: null };
  }
  if (!(await completeSlot(ctx.db, slotId, ctx.actor.id)))
    throw new AppError("CONFLICT", "your reservation expired and another annotator took this item");
  return { label, previous, done: true, next: await nextQueueItem(ctx, queue.id, now) };
}

/**
 * Undo a submission that finished an item: the label is removed (or set back to its previous value; the audit log
 * keeps both writes) and the item is the annotator's reservation again.
 */
export async function withdrawQueueSubmission(
  ctx: ServiceContext,
  slotId: string,
  label: { id: string; version: number; previous: { value: string; comment: string | null } | null },
  now = new Date(),
): Promise<SlotView> {
  authorize(ctx, "annotation:write");
  const slot = await findSlot(ctx.db, slotId);
  if (!slot || slot.annotatorId !== ctx.actor.id) throw new AppError("NOT_FOUND", `no reservation ${slotId}`);
  const queue = await openQueue(ctx, slot.queueId);
  if (label.previous)
    await updateLabel(ctx, { id: label.id, version: label.version, value: label.previous.value, comment: label.previous.comment });
  else await deleteLabel(ctx, label.id, label.version);
  if (
    slot.status === "done" &&
    !(await reopenSlot(ctx.db, slotId, ctx.actor.id, new Date(now.getTime() + queue.reservationMinutes * 60_000)))
  ) {
    throw new AppError("CONFLICT", "this item changed meanwhile; open it from the queue");
  }
  return (await findSlot(ctx.db, slotId))!;
}
