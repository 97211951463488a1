// An annotator working through a queue: "next" reserves an item (reservations expire), "done" finishes it once every
// schema of the queue has a label from them, "skip" gives the place back with a reason.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { completeSlot, findActiveReservation, findSlot, labelledSchemaKeys, reserveNext, skipSlot, type ReserveStrategy, type SlotView } from "../../db/repositories/annotation/queues.ts";
import { openQueue } from "./manage-queues.ts";

/** `strategy` is for bench/annotation.ts (before/after in one run); callers keep the default. */
export async function nextQueueItem(ctx: ServiceContext, queueIdOrName: string, now = new Date(), strategy?: ReserveStrategy): Promise<SlotView | null> {
  authorize(ctx, "annotation:write");
  const queue = await openQueue(ctx, queueIdOrName);
  const held = await findActiveReservation(ctx.db, queue.id, ctx.actor.id, now);
  if (held) return held;
  const expiresAt = new Date(now.getTime() + queue.reservationMinutes * 60_000);
  return reserveNext(ctx.db, queue.id, ctx.actor.id, queue.labelsPerItem, now, expiresAt, strategy);
}

async function ownSlot(ctx: ServiceContext, slotId: string) {
  const slot = await findSlot(ctx.db, slotId);
  if (!slot) throw new AppError("NOT_FOUND", `no reservation ${slotId}`);
  if (slot.annotatorId !== ctx.actor.id) throw new AppError("CONFLICT", "your reservation expired and another annotator took this item; ask for the next one");
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
  if (!(await completeSlot(ctx.db, slotId, ctx.actor.id))) throw new AppError("CONFLICT", "your reservation expired and another annotator took this item");
}

export const skipSchema = z.object({ reason: z.string().trim().min(1, "say why you skip").max(500) });

export async function skipQueueItem(ctx: ServiceContext, slotId: string, raw: unknown): Promise<void> {
  authorize(ctx, "annotation:write");
  const { reason } = skipSchema.parse(raw);
  await ownSlot(ctx, slotId);
  if (!(await skipSlot(ctx.db, slotId, ctx.actor.id, reason))) throw new AppError("CONFLICT", "your reservation expired and another annotator took this item");
}
