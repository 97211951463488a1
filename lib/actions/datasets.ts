"use server";
// Server actions of the datasets pages: each is its input schema and a curation service call (lib/http/action.ts
// checks the permission first, parses, revalidates and returns the one result type).
import { z } from "zod";
import { defineAction } from "../http/action.ts";
import { createDataset, editDatasetItems, editItemsInputSchema } from "../services/curation/manage-datasets.ts";
import { freezeDataset, freezeInputSchema } from "../services/curation/freeze-dataset.ts";
import { startStoringFrozenExports } from "../services/curation/frozen-exports.ts";
import { DATASET_NAME } from "../services/curation/rules.ts";
import { labelConditionSchema } from "../domain/curation/label-rules.ts";
import { markHeldOut, unmarkHeldOut } from "../services/curation/held-out.ts";
import { deleteDataset, deleteDatasetInputSchema } from "../services/curation/delete-dataset.ts";

const KIND = z.enum(["trajectory", "segment"]);

const createFromFilterSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: KIND,
  filter: z.string().max(8_000),
});

export const createDatasetFromFilterAction = defineAction(
  "dataset:write",
  createFromFilterSchema,
  async (ctx, v) => {
    const { dataset, built } = await createDataset(ctx, {
      name: v.name,
      description: v.description,
      rules: { source: "filter", filter: v.filter, kind: v.kind },
    });
    return { name: dataset.name, items: built.items.length };
  },
  { revalidate: "/datasets" },
);

const createFromSelectionSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: KIND,
  ids: z.array(z.string().min(1).max(200)).min(1, "select at least one trajectory").max(100_000, "at most 100,000 trajectories"),
});

/** A dataset from the trajectories the curator selected (a page's rows or every row matching the view). */
export const createDatasetFromSelectionAction = defineAction(
  "dataset:write",
  createFromSelectionSchema,
  async (ctx, v) => {
    const { dataset, built } = await createDataset(ctx, {
      name: v.name,
      description: v.description,
      rules: { source: "selection", ids: v.ids, kind: v.kind },
    });
    return { name: dataset.name, items: built.items.length };
  },
  { revalidate: "/datasets" },
);

const createFromLabelsSchema = z.object({
  name: DATASET_NAME,
  description: z.string().max(2_000).optional(),
  kind: KIND,
  queue: z.string().max(200).optional(),
  conditions: z.array(labelConditionSchema).min(1, "add at least one label condition").max(10),
});

/** A dataset from label rules: gold labels and/or a queue's agreed labels, every condition must hold. */
export const createDatasetFromLabelsAction = defineAction(
  "dataset:write",
  createFromLabelsSchema,
  async (ctx, v) => {
    const { dataset, built } = await createDataset(ctx, {
      name: v.name,
      description: v.description,
      rules: { source: "labels", labels: v.conditions, ...(v.queue ? { queue: v.queue } : {}), kind: v.kind },
    });
    return { name: dataset.name, items: built.items.length };
  },
  { revalidate: "/datasets" },
);

// Held-out task refs arrive as pasted text, one "benchmark/task-id" (or bare task id) a line.
const heldOutTextSchema = z.object({
  tasks: z
    .string()
    .max(1_000_000, "is too long")
    .transform((t) =>
      t
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  reason: z.string().max(500).optional(),
});

export const addHeldOutAction = defineAction(
  "dataset:write",
  heldOutTextSchema,
  async (ctx, v) => ({ added: await markHeldOut(ctx, { tasks: v.tasks, reason: v.reason || undefined }) }),
  { revalidate: "/datasets" },
);

const removeHeldOutSchema = z.object({ tasks: z.array(z.string().min(1).max(300)).min(1, "name at least one task").max(10_000) });

export const removeHeldOutAction = defineAction(
  "dataset:write",
  removeHeldOutSchema,
  async (ctx, v) => ({ removed: await unmarkHeldOut(ctx, { tasks: v.tasks }) }),
  { revalidate: "/datasets" },
);

export const freezeDatasetAction = defineAction(
  "dataset:write",
  freezeInputSchema,
  async (ctx, v) => {
    const r = await freezeDataset(ctx, v);
    await startStoringFrozenExports(ctx, { name: v.name, version: r.version });
    return { version: r.version, contentHash: r.contentHash };
  },
  { revalidate: (v) => `/datasets/${v.name}` },
);

export const editDatasetItemsAction = defineAction(
  "dataset:write",
  editItemsInputSchema,
  async (ctx, v) => ({ revision: (await editDatasetItems(ctx, v)).revision }),
  { revalidate: (v) => `/datasets/${v.name}` },
);

/** Delete the dataset (versions, items, exported files) and go back to the list; stale revision → error, nothing deleted. */
export const deleteDatasetAction = defineAction("dataset:write", deleteDatasetInputSchema, (ctx, v) => deleteDataset(ctx, v), {
  revalidate: "/datasets",
  redirect: () => "/datasets",
});
