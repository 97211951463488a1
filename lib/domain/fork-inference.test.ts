import { describe, expect, it } from "vitest";
import { inferForkLinks, type ForkCandidate } from "./fork-inference";

const steps = (spec: string, errorAt: number[] = [], copied = 0) =>
  [...spec].map((hash, i) => ({ hash, copied: i < copied, isError: errorAt.includes(i) }));
const c = (id: string, order: string, s: ForkCandidate["steps"], taskId = "t"): ForkCandidate => ({ id, taskId, order, steps: s });

describe("inferForkLinks", () => {
  it("links an attempt with a copied prefix to the earliest original sharing it, at the last copied step", () => {
    const pool = [c("root", "1", steps("abcdX")), c("other", "0", steps("abzz")), c("att", "2", steps("abcY", [], 3))];
    expect(inferForkLinks(pool, new Set(["att"]))).toEqual([
      { attemptId: "att", parentId: "root", stepIndex: 2, sharedSteps: 3, reason: "copied-context" },
    ]);
  });

  it("treats a shared prefix containing an error as a fork from that failure state; the earlier one is the parent", () => {
    const pool = [c("late", "5", steps("abcQ", [2])), c("early", "1", steps("abcP", [2]))];
    expect(inferForkLinks(pool, new Set(["late", "early"]))).toEqual([
      { attemptId: "late", parentId: "early", stepIndex: 2, sharedSteps: 3, reason: "shared-prefix" },
    ]);
  });

  it("does not link rollouts that merely start with the same error-free commands, or belong to other tasks", () => {
    const pool = [c("a", "1", steps("abcd")), c("b", "2", steps("abce")), c("x", "3", steps("abcQ", [1]), "other-task")];
    expect(inferForkLinks(pool, new Set(["a", "b", "x"]))).toEqual([]);
  });

  it("is deterministic: input order does not change the result", () => {
    const pool = [c("p", "1", steps("aaE1", [2])), c("q", "2", steps("aaE2", [2])), c("r", "3", steps("aaE3", [2]))];
    const one = inferForkLinks(pool, new Set(["q", "r"]));
    const two = inferForkLinks([...pool].reverse(), new Set(["r", "q"]));
    expect(one).toEqual(two);
    expect(one.map((l) => [l.attemptId, l.parentId])).toEqual([
      ["q", "p"],
      ["r", "p"],
    ]);
  });
});
