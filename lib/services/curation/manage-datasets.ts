// Create a dataset from rules, rebuild it from its rules, add or remove items by hand. Edits go to the draft version
// and name the revision the curator read (stale → 409).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import {
  editDraftItems,
  findDatasetByName,
  findDatasetRules,
  insertDataset,
  type DatasetSummary,
} from "../../db/repositories/datasets/datasets.ts";
import { findExistingTrajectoryIds, findPassedAttempts, resolveRunIds, resolveTaskIds } from "../../db/repositories/datasets/candidates.ts";
import { AppError } from "../../errors.ts";
import { buildItems, type BuiltItems } from "./build-items.ts";
import { DATASET_NAME, datasetRulesSchema, parseStoredRules } from "./rules.ts";
import { ITEM_KINDS } from "../../domain/curation/types.ts";

export const createDatasetInputSchema = z.object({
  name: DATASET_NAME,
  description: z.string().trim().max(2_000, "is longer than 2,000 characters").optional(),
  rules: datasetRulesSchema,
});
export type CreateDatasetInput = z.input<typeof createDatasetInputSchema>;

export async function createDataset(ctx: ServiceContext, input: unknown): Promise<{ dataset: DatasetSummary; built: BuiltItems }> {
  authorize(ctx, "dataset:write");
  const { name, description, rules } = createDatasetInputSchema.parse(input);
  if (await findDatasetByName(ctx.db, name)) throw new AppError("CONFLICT", `a dataset named "${name}" already exists`);
  const built = await buildItems(ctx, rules);
  await insertDataset(ctx.db, {
    name,
    description: description || null,
    itemKind: rules.kind,
    rules: JSON.stringify(rules),
    createdById: ctx.actor.id,
    items: built.items,
  });
  return { dataset: (await findDatasetByName(ctx.db, name))!, built };
}

export async function requireDataset(ctx: ServiceContext, name: string): Promise<DatasetSummary> {
  const d = await findDatasetByName(ctx.db, name);
  if (!d) throw new AppError("NOT_FOUND", `no dataset named "${name}"`);
  return d;
}

/** Rebuild the draft from the dataset's rules (e.g. after new imports or labels). */
export async function rebuildDataset(
  ctx: ServiceContext,
  name: string,
  expectedRevision: number,
): Promise<{ revision: number; built: BuiltItems }> {
  authorize(ctx, "dataset:write");
  const d = await requireDataset(ctx, name);
  const rules = parseStoredRules(await findDatasetRules(ctx.db, d.id));
  if (!rules) throw new AppError("UNPROCESSABLE", `dataset "${name}" has no rules to rebuild from`);
  const built = await buildItems(ctx, rules);
  return {
    revision: await editDraftItems(ctx.db, { datasetId: d.id, expectedRevision, actorId: ctx.actor.id, replace: built.items }),
    built,
  };
}

export const editItemsInputSchema = z.object({
  name: DATASET_NAME,
  expectedRevision: z.number().int().nonnegative(),
  add: z.array(z.string().min(1)).max(100_000).default([]),
  remove: z.array(z.string().min(1)).max(100_000).default([]),
  kind: z.enum(ITEM_KINDS).optional(),
});

/** Add or remove trajectories by hand. Added recovery segments must be passed attempts. */
export async function editDatasetItems(
  ctx: ServiceContext,
  input: z.input<typeof editItemsInputSchema>,
): Promise<{ revision: number; added: number; removed: number }> {
  authorize(ctx, "dataset:write");
  const e = editItemsInputSchema.parse(input);
  const d = await requireDataset(ctx, e.name);
  const kind = e.kind ?? d.itemKind;
  const existing = await findExistingTrajectoryIds(ctx.db, e.add);
  const missing = e.add.filter((id) => !existing.has(id));
  if (missing.length)
    throw new AppError(
      "INVALID_INPUT",
      `add: trajectory ${missing[0]} does not exist${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`,
    );
  if (kind === "segment" && e.add.length) {
    const ok = new Set(await findPassedAttempts(ctx.db, e.add));
    const bad = e.add.filter((id) => !ok.has(id));
    if (bad.length)
      throw new AppError("INVALID_INPUT", `add: ${bad[0]} is not a passed recovery attempt, so it cannot be a recovery segment`);
  }
  const revision = await editDraftItems(ctx.db, {
    datasetId: d.id,
    expectedRevision: e.expectedRevision,
    actorId: ctx.actor.id,
    add: e.add.map((trajectoryId) => ({ trajectoryId, kind })),
    remove: e.remove,
  });
  return { revision, added: e.add.length, removed: e.remove.length };
}

/** The trajectories-table filter (query string) for CLI options; runs and tasks may be named instead of by id. */
export async function tableFilterFor(ctx: ServiceContext, o: { outcome?: string[]; runs?: string[]; tasks?: string[] }): Promise<string> {
  authorize(ctx, "trajectory:read");
  const p = new URLSearchParams();
  for (const v of o.outcome ?? []) p.append("outcome", v);
  if (o.runs?.length) {
    const r = await resolveRunIds(ctx.db, o.runs);
    if (r.unknown.length) throw new AppError("INVALID_INPUT", `--run: no run named ${r.unknown.map((x) => `"${x}"`).join(", ")}`);
    for (const id of r.ids) p.append("runId", id);
  }
  if (o.tasks?.length) {
    const t = await resolveTaskIds(ctx.db, o.tasks);
    if (t.unknown.length) throw new AppError("INVALID_INPUT", `--task: no task named ${t.unknown.map((x) => `"${x}"`).join(", ")}`);
    for (const id of t.ids) p.append("taskId", id);
  }
  return p.toString();
}
