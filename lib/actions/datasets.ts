"use server";
// Server actions of the datasets pages: validate on the server (zod), call a curation service, return a result the
// form can show. The acting user comes from getPageContext.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getPageContext } from "../services/page-context.ts";
import { createDataset, editDatasetItems, editItemsInputSchema } from "../services/curation/manage-datasets.ts";
import { freezeDataset, freezeInputSchema } from "../services/curation/freeze-dataset.ts";
import { startStoringFrozenExports } from "../services/curation/frozen-exports.ts";
import { DATASET_NAME } from "../services/curation/rules.ts";
import { labelConditionSchema } from "../domain/curation/label-rules.ts";
import { markHeldOut, unmarkHeldOut } from "../services/curation/held-out.ts";
import { deleteDataset, deleteDatasetInputSchema } from "../services/curation/delete-dataset.ts";
import { isAppError } from "../errors.ts";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string> };

function failure(e: unknown): { ok: false; error: string; fieldErrors?: Record<string, string> } {
  if (e instanceof z.ZodError) {
    const fieldErrors = Object.fromEntries(e.issues.map((i) => [i.path.join("."), i.message]));
    return { ok: false, error: e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "), fieldErrors };
  }
  if (isAppError(e)) return { ok: false, error: e.message };
  console.error(e);
  return { ok: false, error: "Something went wrong on the server; see its log." };
}

const createFromFilterSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: z.enum(["trajectory", "segment"]),
  filter: z.string().max(8_000),
});

export async function createDatasetFromFilterAction(input: z.input<typeof createFromFilterSchema>): Promise<ActionResult<{ name: string; items: number }>> {
  // The acting user first, outside the try: an anonymous or forbidden caller is redirected before input is read.
  const ctx = await getPageContext("dataset:write");
  try {
    const v = createFromFilterSchema.parse(input);
    const { dataset, built } = await createDataset(ctx, { name: v.name, description: v.description, rules: { source: "filter", filter: v.filter, kind: v.kind } });
    revalidatePath("/datasets");
    return { ok: true, data: { name: dataset.name, items: built.items.length } };
  } catch (e) {
    return failure(e);
  }
}

const createFromSelectionSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: z.enum(["trajectory", "segment"]),
  ids: z.array(z.string().min(1).max(200)).min(1, "select at least one trajectory").max(100_000, "at most 100,000 trajectories"),
});

/** A dataset from the trajectories the curator selected (a page's rows or every row matching the view). */
export async function createDatasetFromSelectionAction(input: z.input<typeof createFromSelectionSchema>): Promise<ActionResult<{ name: string; items: number }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = createFromSelectionSchema.parse(input);
    const { dataset, built } = await createDataset(ctx, { name: v.name, description: v.description, rules: { source: "selection", ids: v.ids, kind: v.kind } });
    revalidatePath("/datasets");
    return { ok: true, data: { name: dataset.name, items: built.items.length } };
  } catch (e) {
    return failure(e);
  }
}

const createFromLabelsSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: z.enum(["trajectory", "segment"]),
  queue: z.string().max(200).optional(),
  conditions: z.array(labelConditionSchema).min(1, "add at least one label condition").max(10),
});

/** A dataset from label rules: gold labels and/or a queue's agreed labels, every condition must hold. */
export async function createDatasetFromLabelsAction(input: z.input<typeof createFromLabelsSchema>): Promise<ActionResult<{ name: string; items: number }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = createFromLabelsSchema.parse(input);
    const { dataset, built } = await createDataset(ctx, { name: v.name, description: v.description, rules: { source: "labels", labels: v.conditions, ...(v.queue ? { queue: v.queue } : {}), kind: v.kind } });
    revalidatePath("/datasets");
    return { ok: true, data: { name: dataset.name, items: built.items.length } };
  } catch (e) {
    return failure(e);
  }
}

// Held-out task refs arrive as pasted text, one "benchmark/task-id" (or bare task id) a line.
const heldOutTextSchema = z.object({
  tasks: z.string().max(1_000_000, "is too long").transform((t) => t.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)),
  reason: z.string().max(500).optional(),
});

export async function addHeldOutAction(input: z.input<typeof heldOutTextSchema>): Promise<ActionResult<{ added: number }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = heldOutTextSchema.parse(input);
    const added = await markHeldOut(ctx, { tasks: v.tasks, reason: v.reason || undefined });
    revalidatePath("/datasets");
    return { ok: true, data: { added } };
  } catch (e) {
    return failure(e);
  }
}

const removeHeldOutSchema = z.object({ tasks: z.array(z.string().min(1).max(300)).min(1, "name at least one task").max(10_000) });

export async function removeHeldOutAction(input: z.input<typeof removeHeldOutSchema>): Promise<ActionResult<{ removed: number }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = removeHeldOutSchema.parse(input);
    const removed = await unmarkHeldOut(ctx, { tasks: v.tasks });
    revalidatePath("/datasets");
    return { ok: true, data: { removed } };
  } catch (e) {
    return failure(e);
  }
}

export async function freezeDatasetAction(input: z.input<typeof freezeInputSchema>): Promise<ActionResult<{ version: number; contentHash: string }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = freezeInputSchema.parse(input);
    const r = await freezeDataset(ctx, v);
    startStoringFrozenExports(ctx, { name: v.name, version: r.version });
    revalidatePath(`/datasets/${v.name}`);
    return { ok: true, data: { version: r.version, contentHash: r.contentHash } };
  } catch (e) {
    return failure(e);
  }
}

export async function editDatasetItemsAction(input: z.input<typeof editItemsInputSchema>): Promise<ActionResult<{ revision: number }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = editItemsInputSchema.parse(input);
    const r = await editDatasetItems(ctx, v);
    revalidatePath(`/datasets/${v.name}`);
    return { ok: true, data: { revision: r.revision } };
  } catch (e) {
    return failure(e);
  }
}

/** Delete the dataset (versions, items, exported files) and go back to the list; stale revision → error, nothing deleted. */
export async function deleteDatasetAction(input: z.input<typeof deleteDatasetInputSchema>): Promise<ActionResult<never>> {
  const ctx = await getPageContext("dataset:write");
  try {
    await deleteDataset(ctx, deleteDatasetInputSchema.parse(input));
  } catch (e) {
    return failure(e);
  }
  revalidatePath("/datasets");
  redirect("/datasets");
}
