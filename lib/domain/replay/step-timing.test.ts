import { describe, expect, it } from "vitest";
import { recordingStepTimings, stepOfMarker } from "./step-timing.ts";

const steps = [
  { index: 0, offsetMs: 0 },
  { index: 1, offsetMs: 4000 },
  { index: 2, offsetMs: 3000 },
  { index: 3, offsetMs: null },
];

describe("recordingStepTimings", () => {
  it("prefers step markers; unmarked steps start with the step before them", () => {
    const r = recordingStepTimings(
      steps,
      new Map([
        [1, 1000],
        [3, 5000],
      ]),
      9000,
    );
    expect(r.source).toBe("markers");
    expect(r.steps).toEqual([
      { index: 0, startMs: 0, endMs: 999 },
      { index: 1, startMs: 1000, endMs: 1000 },
      { index: 2, startMs: 1000, endMs: 4999 },
      { index: 3, startMs: 5000, endMs: 9000 },
    ]);
  });

  it("falls back to offsets, kept in order and within the recording", () => {
    const r = recordingStepTimings(steps, new Map(), 3500);
    expect(r.source).toBe("offsets");
    expect(r.steps.map((s) => s.startMs)).toEqual([0, 3500, 3500, 3500]);
    expect(r.steps.at(-1)!.endMs).toBe(3500);
  });

  it("spreads steps evenly when nothing else is known", () => {
    const r = recordingStepTimings(
      [
        { index: 0, offsetMs: null },
        { index: 1, offsetMs: null },
      ],
      new Map(),
      1000,
    );
    expect(r).toEqual({
      source: "estimated",
      steps: [
        { index: 0, startMs: 0, endMs: 499 },
        { index: 1, startMs: 500, endMs: 1000 },
      ],
    });
  });

  it("reads step markers", () => {
    expect(stepOfMarker("step 12")).toBe(12);
    expect(stepOfMarker(" Step 3 ")).toBe(3);
    expect(stepOfMarker("Episode 2: 3 commands")).toBeNull();
  });
});
