// Per-item figures shared by the quality filters and the manifest: the row's text as a trainer sees it (for the
// token count) and its step hashes (for duplicate detection).
import { stepContentHash } from "../../domain/hash.ts";
import { itemSteps } from "../../domain/curation/segments.ts";
import { countTokens } from "../../domain/curation/tokens.ts";
import type { ItemSummary } from "../../domain/curation/quality.ts";
import { itemTurns } from "../../exporters/chat/turns.ts";
import type { ExportItem } from "../../exporters/types.ts";

/** The row's token count alone (freezing and draft exports need no step hashes). */
export function itemTokens(e: Pick<ExportItem, "item" | "parent">): number {
  return countTokens(
    itemTurns(e)
      .map((t) => [t.content, ...(t.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`)].join("\n"))
      .join("\n"),
  );
}

export function summarizeItem(e: Pick<ExportItem, "item" | "parent">): ItemSummary {
  const { context, target } = itemSteps(e.item, e.parent);
  return {
    trajectoryId: e.item.dbId,
    outcome: e.item.trajectory.outcome,
    reward: e.item.trajectory.reward ?? null,
    stepHashes: [...context, ...target].map(stepContentHash),
    tokens: itemTokens(e),
  };
}
