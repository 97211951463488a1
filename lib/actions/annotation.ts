"use server";
// Server actions of the labelling workflow: create a queue, take the next item, finish or skip it, record a gold
// label. Each is its input schema and its service call (lib/http/action.ts checks the permission first).
import { z } from "zod";
import { defineAction, listField } from "../http/action.ts";
import { createQueue } from "../services/annotation/manage-queues.ts";
import {
  completeQueueItem,
  nextQueueItem,
  reserveAhead,
  skipQueueItem,
  submitQueueLabel,
  withdrawQueueSubmission,
  type QueueLabelInput,
} from "../services/annotation/work-queue.ts";
import { goldInputSchema, recordGoldLabel } from "../services/annotation/adjudicate.ts";
import type { ServiceContext } from "../services/context.ts";

const idSchema = z.string().min(1).max(200);
const slotSchema = z.object({ queueId: idSchema, slotId: idSchema });

/** The queue item page of a reservation, or the queue page saying nothing is left. */
function hrefOf(queueId: string, slot: { slotId: string } | null): string {
  return slot
    ? `/annotation/queues/${encodeURIComponent(queueId)}/item?slot=${encodeURIComponent(slot.slotId)}`
    : `/annotation/queues/${encodeURIComponent(queueId)}?finished=1`;
}

/** Where the annotator goes next: the next reserved item, or the queue page when nothing is left for them. */
async function nextHref(ctx: ServiceContext, queueId: string): Promise<{ href: string }> {
  return { href: hrefOf(queueId, await nextQueueItem(ctx, queueId)) };
}

/**
 * Reserve the item after this one so the browser fetches it while this one is labelled. `href` is null when nothing
 * is left: the queue page must not be prefetched then, as the browser would later show that copy, taken while this
 * item was still reserved, as the queue's progress.
 */
export const reserveAheadAction = defineAction("annotation:write", slotSchema, async (ctx, v) => {
  const ahead = await reserveAhead(ctx, v.queueId, v.slotId);
  return { href: ahead ? hrefOf(v.queueId, ahead) : null };
});

/** Save a label from a queue item; when that finishes the item, `href` is the next one (one round trip). */
export const submitQueueLabelAction = defineAction(
  "annotation:write",
  slotSchema.extend({ label: z.custom<QueueLabelInput>() }),
  async (ctx, v) => {
    // The label itself is validated by the service.
    const r = await submitQueueLabel(ctx, v.slotId, v.label, { queue: v.queueId });
    return { label: r.label, previous: r.previous, href: r.done ? hrefOf(v.queueId, r.next) : null };
  },
);

const withdrawSchema = slotSchema.extend({
  label: z.object({
    id: idSchema,
    version: z.number().int().positive(),
    previous: z.object({ value: z.string(), comment: z.string().nullable() }).nullable(),
  }),
});

/** Undo the submission that finished an item: the label goes (or gets its old value back) and the item is reopened. */
export const withdrawSubmissionAction = defineAction("annotation:write", withdrawSchema, async (ctx, v) => {
  const slot = await withdrawQueueSubmission(ctx, v.slotId, v.label);
  // A new URL: the browser may hold this item's page from before (prefetched), with the label now withdrawn.
  return { href: `${hrefOf(v.queueId, slot)}&v=${Date.now()}` };
});

export const startQueueAction = defineAction("annotation:write", z.object({ queueId: idSchema }), (ctx, v) => nextHref(ctx, v.queueId));

export const completeItemAction = defineAction("annotation:write", slotSchema, async (ctx, v) => {
  await completeQueueItem(ctx, v.slotId);
  return nextHref(ctx, v.queueId);
});

export const skipItemAction = defineAction("annotation:write", slotSchema.extend({ reason: z.string() }), async (ctx, v) => {
  await skipQueueItem(ctx, v.slotId, { reason: v.reason });
  return nextHref(ctx, v.queueId);
});

// The new-queue form's fields; the service validates the values.
const createFormSchema = z.object({
  name: z.string(),
  description: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  filter: z.string().default(""),
  schemas: listField(z.string()).pipe(z.array(z.string()).min(1, "choose at least one schema")),
  labelsPerItem: z.coerce.number(),
  // An empty field keeps the service's default.
  reservationMinutes: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().optional()),
  assignees: z.string().default(""),
  blind: z.string().optional(),
});

export const createQueueAction = defineAction(
  "queue:manage",
  createFormSchema,
  async (ctx, f) =>
    createQueue(ctx, {
      name: f.name,
      description: f.description,
      filter: f.filter,
      schemas: f.schemas,
      labelsPerItem: f.labelsPerItem,
      ...(f.reservationMinutes !== undefined ? { reservationMinutes: f.reservationMinutes } : {}),
      assignees: f.assignees.split(/[\s,]+/).filter(Boolean),
      blind: f.blind === "on",
    }),
  { redirect: (_f, q) => `/annotation/queues/${q.id}` },
);

export const recordGoldAction = defineAction("annotation:adjudicate", goldInputSchema, async (ctx, v) => {
  await recordGoldLabel(ctx, v);
  return { href: `/annotation/adjudicate/${encodeURIComponent(v.trajectory)}` };
});
