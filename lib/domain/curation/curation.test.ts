import { describe, expect, it } from "vitest";
import { applyQualityRules, qualityRulesSchema, type ItemSummary } from "./quality.ts";
import { findLeaks } from "./leakage.ts";
import { buildManifest, versionContentHash } from "./manifest.ts";
import { countTokens } from "./tokens.ts";
import { buildSegment } from "./segments.ts";
import { describeCondition, labelConditionSchema, matchCondition, parseLabelConditionSpec, valueMatches } from "./label-rules.ts";
import type { StoredTrajectory } from "./types.ts";

const item = (id: string, hashes: string[], extra: Partial<ItemSummary> = {}): ItemSummary => ({
  trajectoryId: id,
  outcome: "passed",
  reward: 1,
  stepHashes: hashes,
  tokens: 10,
  ...extra,
});

describe("quality rules", () => {
  it("drops exact duplicates (first kept) and sequences that are a prefix of another", () => {
    const r = applyQualityRules(
      [item("a", ["1", "2"]), item("b", ["1", "2"]), item("c", ["1", "2", "3"]), item("d", ["9"])],
      qualityRulesSchema.parse({ dedupeExact: true, dedupePrefix: true }),
    );
    expect(r.kept.map((i) => i.trajectoryId)).toEqual(["c", "d"]);
    expect(Object.fromEntries(r.rejected)).toEqual({ b: "duplicate", a: "prefix-duplicate" });
  });
  it("applies step, token, reward and outcome bounds", () => {
    const items = [
      item("a", ["1"]),
      item("b", ["1", "2", "3"], { tokens: 500 }),
      item("c", ["1", "2"], { reward: 0 }),
      item("d", ["1", "2"], { outcome: "failed" }),
      item("e", ["1", "2"]),
    ];
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
  it("counts special-token text in untrusted output as plain text instead of throwing", () => {
    expect(() => countTokens("done <|endoftext|><|im_start|>system")).not.toThrow();
    // As text, the marker is several ordinary tokens (as a special token it would be one).
    expect(countTokens("<|endoftext|>")).toBeGreaterThan(1);
  });
});

describe("leakage", () => {
  it("matches benchmark/id exactly and bare ids in any benchmark", () => {
    const tasks = [
      { benchmark: "tb2", externalId: "x" },
      { benchmark: "tb1", externalId: "y" },
      { benchmark: "tb2", externalId: "z" },
    ];
    expect(
      findLeaks(tasks, [
        { benchmark: "tb2", externalId: "x" },
        { benchmark: "*", externalId: "y" },
        { benchmark: "tb1", externalId: "z" },
      ]),
    ).toEqual(["tb1/y", "tb2/x"]);
  });
});

describe("manifest and hash", () => {
  it("counts by task, run, error and outcome with sorted keys; the hash follows content and order", () => {
    const items = [
      {
        trajectoryId: "b",
        kind: "segment" as const,
        task: "t2",
        run: "r",
        errorCategory: "hang",
        outcome: "passed",
        tokens: 30,
        labels: ["ann:q=3"],
      },
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
  const parent = {
    dbId: "p",
    parentDbId: null,
    errorCategory: null,
    labels: [],
    trajectory: {
      format: "reterm.trajectory.v1",
      task: { benchmark: "b", id: "t" },
      run: { name: "r" },
      outcome: "failed",
      steps: [
        { source: "user", message: "go" },
        { source: "agent", action: "ls", observation: "x" },
        { source: "agent", action: "rm -rf /", observation: "oops" },
      ],
    },
  } as StoredTrajectory;
  const attempt = (steps: StoredTrajectory["trajectory"]["steps"]) =>
    ({
      dbId: "a",
      parentDbId: "p",
      errorCategory: null,
      labels: [],
      trajectory: { ...parent.trajectory, outcome: "passed", fork: { parentId: "p", stepIndex: 1 }, steps },
    }) as StoredTrajectory;
  it("takes the parent up to the fork as context and the attempt's own steps as recovery", () => {
    const s = buildSegment(
      parent,
      attempt([
        { source: "user", message: "go", isCopiedContext: true },
        { source: "agent", action: "ls", observation: "x", isCopiedContext: true },
        { source: "agent", action: "ls -la", observation: "y" },
      ]),
    );
    expect(s.context.map((x) => x.action ?? x.message)).toEqual(["go", "ls"]);
    expect(s.recovery.map((x) => x.action)).toEqual(["ls -la"]);
  });
  it("drops an unmarked copied prefix, and keeps everything when the attempt has only its own steps", () => {
    expect(
      buildSegment(
        parent,
        attempt([
          { source: "user", message: "go" },
          { source: "agent", action: "ls", observation: "x" },
          { source: "agent", action: "pwd" },
        ]),
      ).recovery.map((x) => x.action),
    ).toEqual(["pwd"]);
    expect(buildSegment(parent, attempt([{ source: "agent", action: "pwd" }])).recovery.map((x) => x.action)).toEqual(["pwd"]);
  });
});

describe("label rules", () => {
  const rows = (list: [string, string, string][]) => list.map(([trajectoryId, targetKey, value]) => ({ trajectoryId, targetKey, value }));
  const cond = (c: Parameters<typeof labelConditionSchema.parse>[0]) => labelConditionSchema.parse(c);

  it("matches any label, the gold label, a majority or every annotator of a target", () => {
    const labels = rows([
      ["a", "attempt:a", "3"],
      ["a", "attempt:a", "1"],
      ["a", "attempt:a", "2"],
      ["b", "attempt:b", "2"],
      ["b", "attempt:b", "0"],
      ["c", "attempt:c", "2"],
    ]);
    expect([...matchCondition(cond({ schema: "q", min: 2 }), labels)].sort()).toEqual(["a", "b", "c"]);
    expect([...matchCondition(cond({ schema: "q", min: 2, by: "majority" }), labels)].sort()).toEqual(["a", "c"]); // b: 1 of 2 is no majority
    expect([...matchCondition(cond({ schema: "q", min: 2, by: "all" }), labels)].sort()).toEqual(["c"]);
    expect([...matchCondition(cond({ schema: "q", min: 2, by: "all" }), labels, 2)]).toEqual([]); // c has one label, two needed
    expect([...matchCondition(cond({ schema: "q", min: 2, by: "majority", minAnnotators: 3 }), labels)]).toEqual(["a"]);
    expect([
      ...matchCondition(
        cond({ schema: "u", values: ["true"], by: "gold" }),
        rows([
          ["x", "attempt:x", "true"],
          ["y", "attempt:y", "false"],
        ]),
      ),
    ]).toEqual(["x"]);
    expect(valueMatches({ min: 2 }, "")).toBe(false);
    expect(valueMatches({ min: 2 }, "high")).toBe(false);
  });

  it("parses the CLI spelling and refuses bad specs and rules", () => {
    expect(parseLabelConditionSpec("gold:sft-usable=true")).toEqual({ schema: "sft-usable", by: "gold", values: ["true"] });
    expect(parseLabelConditionSpec("majority:recovery-quality>=2@attempt")).toEqual({
      schema: "recovery-quality",
      by: "majority",
      min: 2,
      targetType: "attempt",
    });
    expect(parseLabelConditionSpec("error-category=hang,timeout")).toEqual({
      schema: "error-category",
      by: "any",
      values: ["hang", "timeout"],
    });
    expect(() => parseLabelConditionSpec("best:q>=2")).toThrow(/must look like/);
    expect(() => parseLabelConditionSpec("q>2")).toThrow(/must look like/);
    expect(labelConditionSchema.safeParse({ schema: "q", by: "gold" }).error?.issues[0]?.message).toMatch(/values or a minimum/);
    expect(labelConditionSchema.safeParse({ schema: "q", min: 1, by: "all", annotator: "ann" }).error?.issues[0]?.path).toEqual([
      "annotator",
    ]);
    expect(describeCondition(cond({ schema: "recovery-quality", min: 2, by: "gold" }))).toBe("the gold label: recovery-quality ≥ 2");
  });
});
