// Turn a dataset's rules into its items: match trajectories (table filter, selection or labels), expand to recovery
// segments when asked, then apply the quality filters (these read the items' steps, a batch at a time).
import type { ServiceContext } from "../context.ts";
import { selectMatchingTrajectories } from "../browse/browse-trajectories.ts";
import { findExistingTrajectoryIds, findPassedAttempts } from "../../db/repositories/datasets/candidates.ts";
import { matchLabelRule } from "./label-source.ts";
import { openExportReader } from "../../db/repositories/datasets/stored-trajectories.ts";
import type { NewItem } from "../../db/repositories/datasets/datasets.ts";
import { applyQualityRules, type ItemSummary, type QualityRules, type Rejection } from "../../domain/curation/quality.ts";
import { paramsFromSearch, trajectoryListQuerySchema } from "../../validation/search-params/index.ts";
import { AppError } from "../../errors.ts";
import { READ_BATCH } from "./items.ts";
import { summarizeItem } from "./summarize.ts";
import type { DatasetRules } from "./rules.ts";

export interface BuiltItems {
  items: NewItem[];
  /** Trajectories the source matched before segments and quality filters. */
  matched: number;
  rejected: Partial<Record<Rejection | "not-a-passed-attempt", number>>;
}

async function matchSource(ctx: ServiceContext, rules: DatasetRules): Promise<string[]> {
  if (rules.source === "filter") {
    const parsed = trajectoryListQuerySchema.safeParse(paramsFromSearch(new URLSearchParams(rules.filter)));
    if (!parsed.success)
      throw new AppError("INVALID_INPUT", `filter: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    const { ids, total, truncated } = await selectMatchingTrajectories(ctx, parsed.data);
    if (truncated)
      throw new AppError(
        "UNPROCESSABLE",
        `the filter matches ${total} trajectories, more than the ${ids.length} a dataset can be built from at once; narrow it`,
      );
    return ids;
  }
  if (rules.source === "selection") {
    const ids = [...new Set(rules.ids)];
    const existing = await findExistingTrajectoryIds(ctx.db, ids);
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length) throw new AppError("INVALID_INPUT", `ids: ${missing.length} trajectories do not exist (first: ${missing[0]})`);
    return ids;
  }
  return matchLabelRule(ctx, rules);
}

const active = (q: QualityRules) =>
  q.dedupeExact || q.dedupePrefix || [q.minSteps, q.maxSteps, q.maxTokens, q.minReward].some((x) => x !== undefined) || !!q.outcome?.length;

/** Items for the rules, in source order. The caller has authorized dataset:write. */
export async function buildItems(ctx: ServiceContext, rules: DatasetRules): Promise<BuiltItems> {
  const matchedIds = await matchSource(ctx, rules);
  const rejected: BuiltItems["rejected"] = {};
  let ids = matchedIds;
  if (rules.kind === "segment") {
    ids = await findPassedAttempts(ctx.db, matchedIds);
    const kept = new Set(ids);
    const dropped = matchedIds.filter((id) => !kept.has(id)).length;
    if (dropped) rejected["not-a-passed-attempt"] = dropped;
  }
  if (!active(rules.quality))
    return { items: ids.map((trajectoryId) => ({ trajectoryId, kind: rules.kind })), matched: matchedIds.length, rejected };

  const summaries: ItemSummary[] = [];
  // One reader (one connection) for the whole pass; summaries need steps, not recordings.
  const reader = openExportReader(ctx.db);
  try {
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const part = ids.slice(i, i + READ_BATCH);
      const stored = await reader.trajectories(part, { steps: true, recording: false });
      const parents =
        rules.kind === "segment"
          ? await reader.trajectories(
              [...stored.values()].map((t) => t.parentDbId).filter((x): x is string => !!x),
              { steps: true, recording: false },
            )
          : new Map();
      for (const id of part) {
        const t = stored.get(id)!;
        const parent = rules.kind === "segment" ? (parents.get(t.parentDbId!) ?? null) : null;
        summaries.push(summarizeItem({ item: t, parent }));
      }
    }
  } finally {
    await reader.close();
  }
  const { kept, rejected: why } = applyQualityRules(summaries, rules.quality);
  for (const r of why.values()) rejected[r] = (rejected[r] ?? 0) + 1;
  return { items: kept.map((s) => ({ trajectoryId: s.trajectoryId, kind: rules.kind })), matched: matchedIds.length, rejected };
}
