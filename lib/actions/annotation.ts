"use server";
// Server actions of the labelling workflow: create a queue, take the next item, finish or skip it. Each gets its
// acting user from getPageContext and validates its input with zod (inside the services).
import { redirect } from "next/navigation";
import { z } from "zod";
import { getPageContext } from "@/lib/services/page-context";
import { createQueue } from "@/lib/services/annotation/manage-queues";
import { completeQueueItem, nextQueueItem, reserveAhead, skipQueueItem, submitQueueLabel, withdrawQueueSubmission, type QueueLabelInput } from "@/lib/services/annotation/work-queue";
import type { LabelView } from "@/lib/services/annotation/list-labels";
import { recordGoldLabel } from "@/lib/services/annotation/adjudicate";
import { isAppError } from "@/lib/errors";

export type ActionResult = { ok: true; href: string } | { ok: false; error: string };

const idSchema = z.string().min(1).max(200);

function fail(e: unknown): ActionResult {
  if (isAppError(e)) return { ok: false, error: e.message };
  if (e instanceof z.ZodError) return { ok: false, error: e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ") };
  throw e;
}

/** Where the annotator goes next: the next reserved item, or the queue page when nothing is left for them. */
async function nextHref(queueId: string): Promise<string> {
  const ctx = await getPageContext("annotation:write");
  return hrefOf(queueId, await nextQueueItem(ctx, queueId));
}

/** The queue item page of a reservation, or the queue page saying nothing is left. */
function hrefOf(queueId: string, slot: { slotId: string } | null): string {
  return slot ? `/annotation/queues/${encodeURIComponent(queueId)}/item?slot=${encodeURIComponent(slot.slotId)}` : `/annotation/queues/${encodeURIComponent(queueId)}?finished=1`;
}

/**
 * Reserve the item after this one so the browser fetches it while this one is labelled. `href` is null when nothing
 * is left: the queue page must not be prefetched then, as the browser would later show that copy, taken while this
 * item was still reserved, as the queue's progress.
 */
export async function reserveAheadAction(queueId: string, slotId: string): Promise<{ ok: true; href: string | null } | { ok: false; error: string }> {
  try {
    const ctx = await getPageContext("annotation:write");
    const ahead = await reserveAhead(ctx, idSchema.parse(queueId), idSchema.parse(slotId));
    return { ok: true, href: ahead ? hrefOf(idSchema.parse(queueId), ahead) : null };
  } catch (e) {
    return fail(e);
  }
}

export type SubmitResult = { ok: true; label: LabelView; previous: { value: string; comment: string | null } | null; href: string | null } | { ok: false; error: string };

/** Save a label from a queue item; when that finishes the item, `href` is the next one (one round trip). */
export async function submitQueueLabelAction(queueId: string, slotId: string, input: QueueLabelInput): Promise<SubmitResult> {
  try {
    const ctx = await getPageContext("annotation:write");
    const r = await submitQueueLabel(ctx, idSchema.parse(slotId), input, { queue: idSchema.parse(queueId) });
    return { ok: true, label: r.label, previous: r.previous, href: r.done ? hrefOf(idSchema.parse(queueId), r.next) : null };
  } catch (e) {
    const f = fail(e);
    return f.ok ? { ok: false, error: "unexpected" } : f;
  }
}

const withdrawSchema = z.object({ id: idSchema, version: z.number().int().positive(), previous: z.object({ value: z.string(), comment: z.string().nullable() }).nullable() });

/** Undo the submission that finished an item: the label goes (or gets its old value back) and the item is reopened. */
export async function withdrawSubmissionAction(queueId: string, slotId: string, label: z.input<typeof withdrawSchema>): Promise<ActionResult> {
  try {
    const ctx = await getPageContext("annotation:write");
    const slot = await withdrawQueueSubmission(ctx, idSchema.parse(slotId), withdrawSchema.parse(label));
    // A new URL: the browser may hold this item's page from before (prefetched), with the label now withdrawn.
    return { ok: true, href: `${hrefOf(idSchema.parse(queueId), slot)}&v=${Date.now()}` };
  } catch (e) {
    return fail(e);
  }
}

export async function startQueueAction(queueId: string): Promise<ActionResult> {
  // Refuse an anonymous or forbidden caller before reading the input (redirects propagate from here).
  await getPageContext("annotation:write");
  try {
    return { ok: true, href: await nextHref(idSchema.parse(queueId)) };
  } catch (e) {
    return fail(e);
  }
}

export async function completeItemAction(queueId: string, slotId: string): Promise<ActionResult> {
  try {
    const ctx = await getPageContext("annotation:write");
    await completeQueueItem(ctx, idSchema.parse(slotId));
    return { ok: true, href: await nextHref(idSchema.parse(queueId)) };
  } catch (e) {
    return fail(e);
  }
}

export async function skipItemAction(queueId: string, slotId: string, reason: string): Promise<ActionResult> {
  try {
    const ctx = await getPageContext("annotation:write");
    await skipQueueItem(ctx, idSchema.parse(slotId), { reason });
    return { ok: true, href: await nextHref(idSchema.parse(queueId)) };
  } catch (e) {
    return fail(e);
  }
}

const createFormSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  filter: z.string().default(""),
  schemas: z.array(z.string()).min(1, "choose at least one schema"),
  labelsPerItem: z.coerce.number(),
  // An empty field keeps the service's default.
  reservationMinutes: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().optional()),
  assignees: z.string().default(""),
  blind: z.string().optional(),
});

export async function createQueueAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  let id: string;
  try {
    const ctx = await getPageContext("queue:manage");
    const f = createFormSchema.parse({
      name: form.get("name"), description: form.get("description") || undefined, filter: form.get("filter") ?? "", schemas: form.getAll("schemas"),
      labelsPerItem: form.get("labelsPerItem"), reservationMinutes: form.get("reservationMinutes"), assignees: form.get("assignees") ?? "", blind: form.get("blind") ?? undefined,
    });
    const q = await createQueue(ctx, {
      name: f.name, description: f.description, filter: f.filter, schemas: f.schemas, labelsPerItem: f.labelsPerItem,
      ...(f.reservationMinutes !== undefined ? { reservationMinutes: f.reservationMinutes } : {}),
      assignees: f.assignees.split(/[\s,]+/).filter(Boolean), blind: f.blind === "on",
    });
    id = q.id;
  } catch (e) {
    return fail(e);
  }
  redirect(`/annotation/queues/${id}`);
}

export async function recordGoldAction(input: { trajectory: string; schema: string; value: string; target?: unknown; comment?: string | null; version: number }): Promise<ActionResult> {
  try {
    const ctx = await getPageContext("annotation:adjudicate");
    await recordGoldLabel(ctx, input);
    return { ok: true, href: `/annotation/adjudicate/${encodeURIComponent(input.trajectory)}` };
  } catch (e) {
    return fail(e);
  }
}
