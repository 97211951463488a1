import { describe, expect, it } from "vitest";
import { generateTrajectories } from "./generate.ts";

describe("generator checkpoints", () => {
  it("evaluates trained runs at each requested step, with skill growing by step", () => {
    const all = [...generateTrajectories({ count: 3000, seed: 5, checkpoints: [100, 200, 400] })];
    const roots = all.filter((t) => !t.fork);
    const grpo = (step: number) => roots.filter((t) => t.run.trainingMethod === "grpo" && t.run.checkpoint === `step-${step}`);
    for (const step of [100, 200, 400]) expect(grpo(step).length).toBeGreaterThan(50);
    expect(new Set(roots.map((t) => t.run.name)).size).toBe(21);
    const rate = (xs: typeof roots) => xs.filter((t) => t.outcome === "passed").length / xs.length;
    const base = roots.filter((t) => t.run.trainingMethod === "base");
    expect(
      rate(grpo(400)) + rate(roots.filter((t) => t.run.trainingMethod === "recovery-grpo" && t.run.checkpoint === "step-400")),
    ).toBeGreaterThan(2 * rate(base));
  });
  it("keeps one checkpoint per method without the option", () => {
    const runs = new Set([...generateTrajectories({ count: 500, seed: 5 })].map((t) => `${t.run.name}@${t.run.checkpoint}`));
    expect([...runs].filter((r) => r.includes("grpo")).every((r) => r.endsWith("s400@step-400"))).toBe(true);
  });
});
