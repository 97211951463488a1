import { describe, expect, it } from "vitest";
import { describeTarget, type StepBrief } from "./describe-target.ts";

const steps: StepBrief[] = [
  { index: 3, command: "ls", exitCode: 0 },
  { index: 9, command: "rg -n 'def parse'", exitCode: 127 },
  { index: 10, command: null, exitCode: null },
  { index: 11, command: `echo ${"x".repeat(100)}`, exitCode: null },
];

describe("describeTarget", () => {
  it("names each kind of target", () => {
    expect(describeTarget({ targetType: "trajectory", stepStart: null, stepEnd: null })).toBe("whole trajectory");
    expect(describeTarget({ targetType: "attempt", stepStart: null, stepEnd: null })).toBe("recovery attempt");
    expect(describeTarget({ targetType: "step_range", stepStart: 3, stepEnd: 5 })).toBe("steps 3–5");
    expect(describeTarget({ targetType: "step_range", stepStart: 4, stepEnd: 4 })).toBe("step 4");
    expect(describeTarget({ targetType: "fork_point", stepStart: 9, stepEnd: 9 })).toBe("fork point after step 9");
  });

  it("adds the command and exit status of the one step a target points at, when the steps are given", () => {
    expect(describeTarget({ targetType: "fork_point", stepStart: 9, stepEnd: 9 }, steps)).toBe(
      "fork point after step 9 · rg -n 'def parse' → exit 127",
    );
    expect(describeTarget({ targetType: "step_range", stepStart: 3, stepEnd: 3 }, steps)).toBe("step 3 · ls → exit 0");
    // A range of several steps stays short; a step without a command or exit status adds nothing.
    expect(describeTarget({ targetType: "step_range", stepStart: 3, stepEnd: 9 }, steps)).toBe("steps 3–9");
    expect(describeTarget({ targetType: "step_range", stepStart: 10, stepEnd: 10 }, steps)).toBe("step 10");
    // A step the summaries do not hold is named without details.
    expect(describeTarget({ targetType: "fork_point", stepStart: 2, stepEnd: 2 }, steps)).toBe("fork point after step 2");
  });

  it("cuts a long command to one line", () => {
    const text = describeTarget({ targetType: "step_range", stepStart: 11, stepEnd: 11 }, steps);
    expect(text.startsWith("step 11 · echo xxx")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(text.length).toBeLessThan(80);
  });

  it("names a target with missing steps by its kind rather than printing null", () => {
    expect(describeTarget({ targetType: "fork_point", stepStart: null, stepEnd: null })).toBe("fork point");
    expect(describeTarget({ targetType: "step_range", stepStart: 2, stepEnd: null })).toBe("step 2");
    expect(describeTarget({ targetType: "unknown-kind", stepStart: null, stepEnd: null })).toBe("whole trajectory");
  });
});
