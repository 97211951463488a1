/**
 * Suggestions: a value offered for a target — by the error detector (each DetectedError) or imported (an
 * LLM judge's output) — that is never a label. An annotator accepts it, changes it or rejects it; accepting or
 * changing creates an ordinary label. The detector's precision per category is computed from those decisions.
 */
import { z } from "zod";
import { wilsonInterval, type Interval } from "../analytics/intervals.ts";
import type { TargetInput } from "./targets.ts";

export const DECISIONS = ["accepted", "changed", "rejected"] as const;
export type Decision = (typeof DECISIONS)[number];

export const DETECTOR_SOURCE = "detector";

/** An import source's name, as the "annotator" field of an imported line names it (e.g. llm-judge-v1). */
export const sourceNameSchema = z
  .string()
  .trim()
  .regex(/^[\w.@-]{1,64}$/, "source name: 1–64 letters, digits, . _ @ -");

/** `detector` or `imported:<name>`. */
export const suggestionSourceSchema = z.union([
  z.literal(DETECTOR_SOURCE),
  z.string().regex(/^imported:[\w.@-]{1,64}$/, "source: detector or imported:<name>"),
]);

export function importedSource(name: string): string {
  return `imported:${name}`;
}

/**
 * A suggestion's key names where it is stored: `det:<DetectedError id>` (the detector's, derived from its finding)
 * or `sug:<Suggestion id>` (imported). One decision per annotator per key.
 */
export type SuggestionRef = { kind: "detector"; id: string } | { kind: "imported"; id: string };

export const suggestionKeySchema = z.string().regex(/^(det|sug):[\w-]{1,100}$/, "suggestion: a key such as det:<id> or sug:<id>");

export function parseSuggestionKey(key: string): SuggestionRef | null {
  const m = /^(det|sug):([\w-]{1,100})$/.exec(key);
  if (!m) return null;
  return { kind: m[1] === "det" ? "detector" : "imported", id: m[2]! };
}

export function suggestionKeyOf(ref: SuggestionRef): string {
  return `${ref.kind === "detector" ? "det" : "sug"}:${ref.id}`;
}

/** The target input a label is created with, from a stored target (the inverse of resolveTarget). */
export function targetInputOf(t: { targetType: string; stepStart: number | null; stepEnd: number | null }): TargetInput | undefined {
  switch (t.targetType) {
    case "step_range":
      return { steps: [t.stepStart ?? 0, t.stepEnd ?? t.stepStart ?? 0] };
    case "fork_point":
      return { forkStep: t.stepStart ?? 0 };
    case "attempt":
      return { attempt: true };
    default:
      return undefined;
  }
}

export const decisionInputSchema = z
  .object({
    suggestion: suggestionKeySchema,
    decision: z.enum(DECISIONS),
    /** The annotator's value, for `changed`. */
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    comment: z.string().max(4000).nullish(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.decision === "changed" && d.value === undefined)
      ctx.addIssue({ code: "custom", path: ["value"], message: "a changed suggestion needs the value you chose" });
    if (d.decision !== "changed" && d.value !== undefined)
      ctx.addIssue({ code: "custom", path: ["value"], message: `value is only given when the decision is "changed"` });
  });
export type DecisionInput = z.infer<typeof decisionInputSchema>;

/** "Changed" to the suggested value is an acceptance: precision counts what the annotator ended up agreeing with. */
export function effectiveDecision(decision: Decision, suggested: string, chosen: string | null): Decision {
  return decision === "changed" && chosen === suggested ? "accepted" : decision;
}

export interface DecisionCount {
  /** The suggested value (error category for the detector). */
  value: string;
  decision: string;
  n: number;
}

export interface PrecisionRow {
  category: string;
  decided: number;
  accepted: number;
  changed: number;
  rejected: number;
  /** accepted / decided; null when nothing was decided. */
  precision: number | null;
  /** Wilson 95% interval of the precision; null when nothing was decided. */
  ci: Interval | null;
}

function row(category: string, accepted: number, changed: number, rejected: number): PrecisionRow {
  const decided = accepted + changed + rejected;
  return {
    category,
    decided,
    accepted,
    changed,
    rejected,
    precision: decided ? accepted / decided : null,
    ci: wilsonInterval(accepted, decided),
  };
}

/**
 * Precision per suggested category from grouped decision counts: of the decisions on suggestions of a category, the
 * share accepted as they were. Categories in `order` come first (the taxonomy order), the rest alphabetically.
 */
export function precisionByCategory(
  counts: readonly DecisionCount[],
  order: readonly string[] = [],
): { categories: PrecisionRow[]; overall: PrecisionRow } {
  const by = new Map<string, { accepted: number; changed: number; rejected: number }>();
  for (const c of counts) {
    if (!(DECISIONS as readonly string[]).includes(c.decision)) continue;
    const r = by.get(c.value) ?? { accepted: 0, changed: 0, rejected: 0 };
    r[c.decision as Decision] += c.n;
    by.set(c.value, r);
  }
  const rank = (v: string) => {
    const i = order.indexOf(v);
    return i === -1 ? order.length : i;
  };
  const categories = [...by]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([category, r]) => row(category, r.accepted, r.changed, r.rejected));
  const sum = (k: "accepted" | "changed" | "rejected") => categories.reduce((s, r) => s + r[k], 0);
  return { categories, overall: row("all", sum("accepted"), sum("changed"), sum("rejected")) };
}
