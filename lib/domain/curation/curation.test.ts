import { describe, expect, it } from "vitest";
import { applyQualityRules, qualityRulesSchema, type ItemSummary } from "./quality.ts";
import { findLeaks } from "./leakage.ts";
import { buildManifest, versionContentHash } from "./manifest.ts";
import { countTokens } from "./tokens.ts";
import { buildSegment } from "./segments.ts";
import type { StoredTrajectory } from "./types.ts";

const item = (id: string, hashes: string[], extra: Partial<ItemSummary> = {}): ItemSummary => ({ trajectoryId: id, outcome: "passed", reward: 1, stepHashes: hashes, tokens: 10, ...extra });

describe("quality rules", () => {
  it("drops exact duplicates (first kept) and sequences that are a prefix of another", () => {
    const r = applyQualityRules([item("a", ["1", "2"]), item("b", ["1", "2"]), item("c", ["1", "2", "3"]), item("d", ["9"])], qualityRulesSchema.parse({ dedupeExact: true, dedupePrefix: true }));
    expect(r.kept.map((i) => i.trajectoryId)).toEqual(["c", "d"]);
    expect(Object.fromEntries(r.rejected)).toEqual({ b: "duplicate", a: "prefix-duplicate" });
  });
  it("applies step, token, reward and outcome bounds", () => {
    const items = [item("a", ["1"]), item("b", ["1", "2", "3"], { tokens: 500 }), item("c", ["1", "2"], { reward: 0 }), item("d", ["1", "2"], { outcome: "failed" }), item("e", ["1", "2"])];
    const r = applyQualityRules(items, qualityRulesSchema.parse({ minSteps: 2, maxTokens: 100, minReward: 0.5, outcome: ["passed"] }));
    expect(r.kept.map((i) => i.trajectoryId)).toEqual(["e"]);
    expect(Object.fromEntries(r.rejected)).toEqual({ a: "too-few-steps", b: "too-many-tokens", c: "reward", d: "outcome" });
  });
});

describe("tokens", () => {
  it("counts BPE tokens, not characters", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("a".repeat(64))).toBeLessThan(64);
  });
});

describe("leakage", () => {
  it("matches benchmark/id exactly and bare ids in any benchmark", () => {
    const tasks = [{ benchmark: "tb2", externalId: "x" }, { benchmark: "tb1", externalId: "y" }, { benchmark: "tb2", externalId: "z" }];
    expect(findLeaks(tasks, [{ benchmark: "tb2", externalId: "x" }, { benchmark: "*", externalId: "y" }, { benchmark: "tb1", externalId: "z" }])).toEqual(["tb1/y", "tb2/x"]);
  });
});

describe("manifest and hash", () => {
  it("counts by task, run, error and outcome with sorted keys; the hash follows content and order", () => {
    const items = [
      { trajectoryId: "b", kind: "segment" as const, task: "t2", run: "r", errorCategory: "hang", outcome: "passed", tokens: 30, labels: ["ann:q=3"] },
      { trajectoryId: "a", kind: "segment" as const, task: "t1", run: "r", errorCategory: null, outcome: "passed", tokens: 10, labels: [] },
    ];
    const m = buildManifest(items, "tok", null);
    expect(Object.keys(m.byTask)).toEqual(["t1", "t2"]);
    expect(m.byErrorCategory).toEqual({ hang: 1, none: 1 });
    expect(m.tokens).toEqual({ total: 40, max: 30, mean: 20, tokenizer: "tok" });
    expect(m.labelValues).toEqual({ "q=3": 1 });
    expect(versionContentHash(items)).toBe(versionContentHash([...items]));
    expect(versionContentHash(items)).not.toBe(versionContentHash([...items].reverse()));
    expect(versionContentHash(items)).not.toBe(versionContentHash([{ ...items[0]!, labels: ["ann:q=2"] }, items[1]!]));
  });
});

describe("recovery segments", () => {
  const parent = { dbId: "p", parentDbId: null, errorCategory: null, labels: [], trajectory: { format: "reterm.trajectory.v1", task: { benchmark: "b", id: "t" }, run: { name: "r" }, outcome: "failed", steps: [{ source: "user", message: "go" }, { source: "agent", action: "ls", observation: "x" }, { source: "agent", action: "rm -rf /", observation: "oops" }] } } as StoredTrajectory;
  const attempt = (steps: StoredTrajectory["trajectory"]["steps"]) => ({ dbId: "a", parentDbId: "p", errorCategory: null, labels: [], trajectory: { ...parent.trajectory, outcome: "passed", fork: { parentId: "p", stepIndex: 1 }, steps } }) as StoredTrajectory;
  it("takes the parent up to the fork as context and the attempt's own steps as recovery", () => {
    const s = buildSegment(parent, attempt([{ source: "user", message: "go", isCopiedContext: true }, { source: "agent", action: "ls", observation: "x", isCopiedContext: true }, { source: "agent", action: "ls -la", observation: "y" }]));
    expect(s.context.map((x) => x.action ?? x.message)).toEqual(["go", "ls"]);
    expect(s.recovery.map((x) => x.action)).toEqual(["ls -la"]);
  });
  it("drops an unmarked copied prefix, and keeps everything when the attempt has only its own steps", () => {
    expect(buildSegment(parent, attempt([{ source: "user", message: "go" }, { source: "agent", action: "ls", observation: "x" }, { source: "agent", action: "pwd" }])).recovery.map((x) => x.action)).toEqual(["pwd"]);
    expect(buildSegment(parent, attempt([{ source: "agent", action: "pwd" }])).recovery.map((x) => x.action)).toEqual(["pwd"]);
  });
});
