import { describe, expect, it } from "vitest";
import {
  decisionInputSchema,
  effectiveDecision,
  parseSuggestionKey,
  precisionByCategory,
  suggestionKeyOf,
  suggestionSourceSchema,
  targetInputOf,
} from "./suggestions.ts";
import { resolveTarget } from "./targets.ts";

describe("suggestion keys and sources", () => {
  it("round-trips detector and imported keys and refuses others", () => {
    expect(parseSuggestionKey("det:abc123")).toEqual({ kind: "detector", id: "abc123" });
    expect(parseSuggestionKey("sug:x_y-z")).toEqual({ kind: "imported", id: "x_y-z" });
    expect(suggestionKeyOf({ kind: "imported", id: "q1" })).toBe("sug:q1");
    expect(parseSuggestionKey("lab:abc")).toBeNull();
    expect(parseSuggestionKey("det:a b")).toBeNull();
    expect(suggestionSourceSchema.safeParse("detector").success).toBe(true);
    expect(suggestionSourceSchema.safeParse("imported:llm-judge-v1").success).toBe(true);
    expect(suggestionSourceSchema.safeParse("imported:").success).toBe(false);
    expect(suggestionSourceSchema.safeParse("judge").success).toBe(false);
  });

  it("turns a stored target back into the input that resolves to the same canonical key", () => {
    const facts = { trajectoryId: "t1", stepCount: 10, isAttempt: false };
    const all = ["trajectory", "step_range", "fork_point", "attempt"] as const;
    for (const stored of [
      { targetType: "step_range", stepStart: 3, stepEnd: 5, key: "steps:t1:3-5" },
      { targetType: "fork_point", stepStart: 4, stepEnd: 4, key: "fork:t1:4" },
      { targetType: "trajectory", stepStart: null, stepEnd: null, key: "traj:t1" },
    ]) {
      const r = resolveTarget(targetInputOf(stored), facts, all);
      expect(r.ok && r.target.key).toBe(stored.key);
    }
    const attempt = resolveTarget(
      targetInputOf({ targetType: "attempt", stepStart: null, stepEnd: null }),
      { ...facts, isAttempt: true },
      all,
    );
    expect(attempt.ok && attempt.target.key).toBe("attempt:t1");
  });
});

describe("decisions", () => {
  it("needs a value exactly when the suggestion is changed", () => {
    expect(decisionInputSchema.safeParse({ suggestion: "det:a", decision: "accepted" }).success).toBe(true);
    const noValue = decisionInputSchema.safeParse({ suggestion: "det:a", decision: "changed" });
    expect(noValue.success).toBe(false);
    expect(noValue.error?.issues[0]?.path).toEqual(["value"]);
    expect(decisionInputSchema.safeParse({ suggestion: "det:a", decision: "rejected", value: "x" }).success).toBe(false);
    expect(decisionInputSchema.safeParse({ suggestion: "nope", decision: "accepted" }).success).toBe(false);
  });

  it("counts a change to the suggested value as an acceptance", () => {
    expect(effectiveDecision("changed", "timeout", "timeout")).toBe("accepted");
    expect(effectiveDecision("changed", "timeout", "hang")).toBe("changed");
    expect(effectiveDecision("rejected", "timeout", null)).toBe("rejected");
  });
});

describe("precisionByCategory", () => {
  it("gives accepted / decided per category with a Wilson interval, in taxonomy order", () => {
    const { categories, overall } = precisionByCategory(
      [
        { value: "timeout", decision: "accepted", n: 3 },
        { value: "timeout", decision: "rejected", n: 1 },
        { value: "command-error", decision: "accepted", n: 1 },
        { value: "command-error", decision: "changed", n: 1 },
        { value: "command-error", decision: "rejected", n: 2 },
        { value: "zz-custom", decision: "rejected", n: 2 },
        { value: "timeout", decision: "bogus", n: 9 },
      ],
      ["command-error", "timeout"],
    );
    expect(categories.map((c) => c.category)).toEqual(["command-error", "timeout", "zz-custom"]);
    expect(categories[0]).toMatchObject({ decided: 4, accepted: 1, changed: 1, rejected: 2, precision: 0.25 });
    expect(categories[1]).toMatchObject({ decided: 4, accepted: 3, changed: 0, rejected: 1, precision: 0.75 });
    expect(categories[2]).toMatchObject({ decided: 2, accepted: 0, precision: 0 });
    // Wilson 95% for 3 of 4, worked by hand: centre 0.6275 ± 0.3269.
    expect(categories[1]!.ci!.lo).toBeCloseTo(0.3006, 3);
    expect(categories[1]!.ci!.hi).toBeCloseTo(0.9544, 3);
    expect(overall).toMatchObject({ category: "all", decided: 10, accepted: 4, changed: 1, rejected: 5, precision: 0.4 });
  });

  it("is empty with no decisions", () => {
    const r = precisionByCategory([]);
    expect(r.categories).toEqual([]);
    expect(r.overall).toMatchObject({ decided: 0, precision: null, ci: null });
  });
});
