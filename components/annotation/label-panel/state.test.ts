import { describe, expect, it } from "vitest";
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { currentTarget, initialPanelState, panelReducer, type PanelFacts } from "./state";

const schema = (id: string, targets: LabelSchemaView["targets"]): LabelSchemaView =>
  ({
    id,
    key: id,
    name: id,
    description: null,
    kind: "categorical",
    targets,
    options: [{ value: "a", label: "A", hotkey: "1" }],
    active: true,
  }) as unknown as LabelSchemaView;

const facts: PanelFacts = {
  schemas: [schema("error-category", ["trajectory", "step_range", "fork_point"]), schema("notes", ["step_range"])],
  defaults: {
    "error-category": { type: "fork_point", input: { forkStep: 9 }, step: 9, words: "fork point after step 9" },
    notes: { type: "step_range", input: { steps: [4, 4] }, step: 4, words: "step 4" },
  },
  stepCount: 20,
  forkSteps: [9],
  isAttempt: false,
  trajectoryId: "t1",
};
const reduce = panelReducer(facts);

describe("label panel state", () => {
  it("starts on the schema's default target, with the cursor there in a queue (not step 0)", () => {
    expect(initialPanelState(facts, { keys: false }).cursor).toBe(0);
    const s = initialPanelState(facts, { keys: true, cursorFollows: true });
    expect(s.cursor).toBe(9);
    const t = currentTarget(s, facts);
    expect(t.target?.ok && t.target.target.key).toBe("fork:t1:9");
    expect(t.isDefault).toBe(true);
  });

  it("a fork-point default puts the step range on the fork's step, so choosing a step range keeps the place", () => {
    const s = initialPanelState(facts, { keys: true, cursorFollows: true });
    expect(s.range).toEqual([9, 9]);
    expect(currentTarget(reduce(s, { type: "mode", mode: "range" }), facts).target).toMatchObject({
      ok: true,
      target: { key: "steps:t1:9-9" },
    });
  });

  it("follows the default when the schema changes, until the annotator picks a target", () => {
    let s = initialPanelState(facts, { keys: true, cursorFollows: true });
    s = reduce(s, { type: "nextSchema" });
    expect(currentTarget(s, facts).target).toMatchObject({ ok: true, target: { key: "steps:t1:4-4" } });
    s = reduce(s, { type: "schema", idx: 0 });
    s = reduce(s, { type: "move", by: 2 });
    s = reduce(s, { type: "rangeStart" });
    s = reduce(s, { type: "rangeEnd" });
    expect(currentTarget(s, facts)).toMatchObject({ target: { ok: true, target: { key: "steps:t1:11-11" } }, isDefault: false });
    s = reduce(s, { type: "nextSchema" });
    expect(currentTarget(s, facts).target).toMatchObject({ ok: true, target: { key: "steps:t1:11-11" } });
  });

  it("clamps the cursor and orders a typed range", () => {
    let s = initialPanelState(facts, { keys: false });
    s = reduce(s, { type: "move", by: 100 });
    expect(s.cursor).toBe(19);
    s = reduce(s, { type: "range", range: [7, 3] });
    expect(s.range).toEqual([3, 7]);
    expect(s.mode).toBe("range");
  });

  it("clears the chosen value after a save and on Escape, and keeps help and keys toggles", () => {
    let s = initialPanelState(facts, { keys: false });
    s = reduce(s, { type: "pick", value: "a" });
    s = reduce(s, { type: "comment", text: "why" });
    s = reduce(s, { type: "saved" });
    expect([s.pending, s.comment]).toEqual([null, ""]);
    s = reduce(reduce(s, { type: "keys" }), { type: "help" });
    expect([s.keys, s.help]).toEqual([true, true]);
    expect(reduce(s, { type: "escape" }).help).toBe(false);
  });
});
