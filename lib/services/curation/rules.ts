// The rules a dataset is built from, kept with it so it can be rebuilt: where items come from (a trajectories-table
// filter, a hand selection, or label rules: any / gold / agreed label values, optionally of one queue), whether they
// are whole trajectories or recovery segments, and the quality filters. Validated with zod wherever rules enter (form, API, CLI) and when read back.
import { z } from "zod";
import { qualityRulesSchema } from "../../domain/curation/quality.ts";
import { labelConditionSchema } from "../../domain/curation/label-rules.ts";
import { ITEM_KINDS } from "../../domain/curation/types.ts";
import { trajectoryQueryToParams, type TrajectoryListQuery } from "../../validation/search-params/index.ts";

/** One condition, or several that must all hold (stored rules from before conditions could be combined are one). */
export const labelRuleSchema = z.union([
  labelConditionSchema,
  z.array(labelConditionSchema).min(1, "needs at least one condition").max(10, "at most 10 conditions"),
]);

export const datasetRulesSchema = z
  .discriminatedUnion("source", [
    z.object({ source: z.literal("filter"), filter: z.string().max(8_000, "filter is too long") }),
    z.object({ source: z.literal("selection"), ids: z.array(z.string().min(1)).max(100_000, "at most 100,000 trajectories") }),
    /** `queue`: only that annotation queue's items and labels (by name), in queue order. */
    z.object({ source: z.literal("labels"), labels: labelRuleSchema, queue: z.string().trim().min(1).max(200).optional() }),
  ])
  .and(
    z.object({
      kind: z.enum(ITEM_KINDS).default("trajectory"),
      quality: qualityRulesSchema.default({ dedupeExact: false, dedupePrefix: false }),
    }),
  );
export type DatasetRules = z.infer<typeof datasetRulesSchema>;
export type DatasetRulesInput = z.input<typeof datasetRulesSchema>;

export const DATASET_NAME = z
  .string()
  .trim()
  .min(1, "is required")
  .max(100, "is longer than 100 characters")
  .regex(/^[\w.-]+$/, "may only hold letters, digits, '.', '_' and '-'");

/** Rules read back from the database (validated; a dataset built before rules existed has none). */
export function parseStoredRules(text: string | null): DatasetRules | null {
  if (!text) return null;
  const r = datasetRulesSchema.safeParse(JSON.parse(text));
  return r.success ? r.data : null;
}

/** The table filter a dataset keeps: the view's filters, search and order, without paging or column choices. */
export function datasetFilterOf(q: TrajectoryListQuery): string {
  const p = trajectoryQueryToParams({ ...q, page: 1, cursor: undefined, cols: undefined });
  p.delete("perPage");
  p.delete("page");
  return p.toString();
}
