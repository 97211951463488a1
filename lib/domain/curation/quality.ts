// Quality filters researchers apply before training: exact and shared-prefix duplicates, step and token bounds,
// outcome and reward thresholds. Pure over item summaries, so the rules are testable and the same in UI and CLI.
import { z } from "zod";
import { sha256 } from "../hash.ts";

export const qualityRulesSchema = z.object({
  dedupeExact: z.boolean().default(false),
  /** Drop an item whose step sequence is a strict prefix of another item's (keep the longer one). */
  dedupePrefix: z.boolean().default(false),
  minSteps: z.number().int().nonnegative().optional(),
  maxSteps: z.number().int().positive().optional(),
  /** Maximum tokens of a row (context + target text), counted with the tokenizer. */
  maxTokens: z.number().int().positive().optional(),
  minReward: z.number().optional(),
  outcome: z.array(z.enum(["passed", "failed", "unknown"])).optional(),
});
export type QualityRules = z.infer<typeof qualityRulesSchema>;

export interface ItemSummary {
  trajectoryId: string;
  outcome: string;
  reward: number | null;
  /** Content hashes of the item's steps in order (context then target). */
  stepHashes: string[];
  tokens: number;
}

export type Rejection = "duplicate" | "prefix-duplicate" | "too-few-steps" | "too-many-steps" | "too-many-tokens" | "reward" | "outcome";

/** Items kept (in input order) and why the others were dropped. */
export function applyQualityRules(items: ItemSummary[], r: QualityRules): { kept: ItemSummary[]; rejected: Map<string, Rejection> } {
  const rejected = new Map<string, Rejection>();
  const pass = items.filter((it) => {
    const why = boundsRejection(it, r);
    if (why) rejected.set(it.trajectoryId, why);
    return !why;
  });
  const seen = new Set<string>();
  const unique = r.dedupeExact
    ? pass.filter((it) => {
        const key = it.stepHashes.join(",");
        if (seen.has(key)) rejected.set(it.trajectoryId, "duplicate");
        else seen.add(key);
        return !rejected.has(it.trajectoryId);
      })
    : pass;
  if (!r.dedupePrefix) return { kept: unique, rejected };
  // A sequence is a prefix of a longer one exactly when it equals one of the longer one's prefixes: index every
  // proper prefix of every item by a chained hash (linear in steps), then drop items whose whole sequence is indexed.
  const chains = new Map(unique.map((it) => [it, prefixKeys(it.stepHashes)]));
  const prefixes = new Set<string>();
  for (const keys of chains.values()) for (const k of keys.slice(0, -1)) prefixes.add(k);
  const kept = unique.filter((it) => {
    const keys = chains.get(it)!;
    const isPrefix = keys.length > 0 && prefixes.has(keys.at(-1)!);
    if (isPrefix) rejected.set(it.trajectoryId, "prefix-duplicate");
    return !isPrefix;
  });
  return { kept, rejected };
}

function boundsRejection(it: ItemSummary, r: QualityRules): Rejection | null {
  if (r.minSteps !== undefined && it.stepHashes.length < r.minSteps) return "too-few-steps";
  if (r.maxSteps !== undefined && it.stepHashes.length > r.maxSteps) return "too-many-steps";
  if (r.maxTokens !== undefined && it.tokens > r.maxTokens) return "too-many-tokens";
  if (r.minReward !== undefined && (it.reward === null || it.reward < r.minReward)) return "reward";
  if (r.outcome?.length && !(r.outcome as string[]).includes(it.outcome)) return "outcome";
  return null;
}

/** keys[n] identifies the first n+1 steps: a hash chained over the step hashes. */
function prefixKeys(stepHashes: string[]): string[] {
  const keys: string[] = [];
  let key = "";
  for (const h of stepHashes) keys.push((key = sha256(key + h)));
  return keys;
}
