import { describe, expect, it } from "vitest";
import { defaultTarget, targetWords, type TargetContext } from "./default-target.ts";

const base: TargetContext = { isAttempt: false, stepCount: 12, forkSteps: [], firstErrorStep: null, acceptedStep: null };
const errorCategory = ["trajectory", "step_range", "fork_point"] as const;

describe("defaultTarget", () => {
  it("puts a label on the trajectory's first fork point when the schema labels fork points", () => {
    expect(defaultTarget(errorCategory, { ...base, forkSteps: [9, 4], firstErrorStep: 2 })).toEqual({
      type: "fork_point",
      input: { forkStep: 4 },
      step: 4,
    });
  });
  it("uses the accepted suggestion's step, else the first detected error, never step 0 by default", () => {
    expect(defaultTarget(errorCategory, { ...base, firstErrorStep: 5 })).toEqual({ type: "step_range", input: { steps: [5, 5] }, step: 5 });
    expect(defaultTarget(errorCategory, { ...base, firstErrorStep: 5, acceptedStep: 7 })?.input).toEqual({ steps: [7, 7] });
    expect(defaultTarget(errorCategory, base)).toEqual({ type: "trajectory", input: {}, step: null });
    expect(defaultTarget(["step_range"], base)).toEqual({ type: "step_range", input: { steps: [11, 11] }, step: 11 });
  });
  it("ignores steps outside the trajectory", () => {
    expect(defaultTarget(["step_range"], { ...base, firstErrorStep: 40 })?.step).toBe(11);
  });
  it("labels the attempt of a recovery attempt", () => {
    expect(defaultTarget(["attempt"], { ...base, isAttempt: true, firstErrorStep: 3 })).toEqual({ type: "attempt", input: {}, step: null });
    expect(defaultTarget(["fork_point"], base)).toBeNull();
  });
});

describe("targetWords", () => {
  it("names the fork point with the command and exit code", () => {
    expect(targetWords({ type: "fork_point", step: 9 }, { action: "rg -n 'def parse'\nls", exitCode: 127 })).toBe(
      "fork point after step 9 · rg -n 'def parse' → exit 127",
    );
    expect(targetWords({ type: "step_range", step: 2, stepEnd: 4 }, null)).toBe("steps 2–4");
    expect(targetWords({ type: "step_range", step: 3 }, { action: null, exitCode: 1 })).toBe("step 3 · → exit 1");
    expect(targetWords({ type: "trajectory", step: null })).toBe("the whole trajectory");
    expect(targetWords({ type: "fork_point", step: 1 }, { action: "x".repeat(80), exitCode: null })).toMatch(
      /^fork point after step 1 · x{59}…$/,
    );
  });
});
