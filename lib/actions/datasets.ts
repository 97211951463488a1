"use server";
// Server actions of the datasets pages: validate on the server (zod), call a curation service, return a result the
// form can show. The acting user comes from getPageContext.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getPageContext } from "../services/page-context.ts";
import { createDataset, editDatasetItems, editItemsInputSchema } from "../services/curation/manage-datasets.ts";
import { freezeDataset, freezeInputSchema } from "../services/curation/freeze-dataset.ts";
import { DATASET_NAME } from "../services/curation/rules.ts";
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

export async function freezeDatasetAction(input: z.input<typeof freezeInputSchema>): Promise<ActionResult<{ version: number; contentHash: string }>> {
  const ctx = await getPageContext("dataset:write");
  try {
    const v = freezeInputSchema.parse(input);
    const r = await freezeDataset(ctx, v);
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
