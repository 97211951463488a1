import { describe, expect, it } from "vitest";
import {
  adjacentMarker,
  adjacentStep,
  buildMarkers,
  errorFacts,
  MAX_ERROR_BUTTONS,
  packErrorFacts,
  stepIndexAt,
  stepSeekMs,
  unpackErrorFacts,
} from "./markers.ts";
import type { StepTiming } from "./recording.ts";

const steps: StepTiming[] = [
  { index: 0, startMs: 0, endMs: 0 },
  { index: 1, startMs: 100, endMs: 900 },
  { index: 2, startMs: 1000, endMs: 2500 },
  { index: 3, startMs: 3000, endMs: 3600 },
  { index: 4, startMs: 4000, endMs: 5000 },
];
const markers = buildMarkers(
  {
    steps,
    errors: [
      { stepIndex: 2, category: "command-error", signal: "command-not-found", excerpt: "bash: foo: command not found" },
      { stepIndex: 4, category: "test-failure", signal: "test-failure", excerpt: null },
      { stepIndex: 99, category: "timeout", signal: "timeout", excerpt: null },
    ],
    forks: [
      { stepIndex: 2, attempts: 3, errorCategory: "command-error" },
      { stepIndex: 3, attempts: 1, errorCategory: null, label: "Forked from the parent here" },
    ],
    end: { durationMs: 5200, outcome: "failed", reward: 0 },
  },
  (c) => c.toUpperCase(),
);

describe("markers", () => {
  it("places errors and forks at the end of their step, ignores unknown steps, ends with the result", () => {
    expect(markers.filter((m) => m.kind === "error").map((m) => [m.stepIndex, m.atMs, m.suggestion])).toEqual([
      [2, 2500, true],
      [4, 5000, true],
    ]);
    expect(markers.find((m) => m.kind === "error")!.label).toBe("COMMAND-ERROR (command-not-found): bash: foo: command not found");
    expect(markers.filter((m) => m.kind === "fork")).toMatchObject([
      { atMs: 2500, stepIndex: 2, label: "Fork point after step 2 · 3 attempts · COMMAND-ERROR" },
      { atMs: 3600, stepIndex: 3, label: "Forked from the parent here" },
    ]);
    expect(markers.at(-1)).toMatchObject({ kind: "end", atMs: 5200, label: "End: failed · reward 0.00" });
    const times = markers.map((m) => m.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("finds the next and previous marker of a kind, moving on from a marker's own position", () => {
    expect(adjacentMarker(markers, "error", 0, 1)?.stepIndex).toBe(2);
    expect(adjacentMarker(markers, "error", 2500, 1)?.stepIndex).toBe(4);
    expect(adjacentMarker(markers, "error", 5000, 1)).toBeNull();
    expect(adjacentMarker(markers, "error", 5000, -1)?.stepIndex).toBe(2);
    expect(adjacentMarker(markers, "fork", 0, 1)?.atMs).toBe(2500);
  });

  it("maps time to the current step and steps to seek targets", () => {
    expect(stepIndexAt(steps, 0)).toBe(0);
    expect(stepIndexAt(steps, 950)).toBe(1);
    expect(stepIndexAt(steps, 2600)).toBe(2);
    expect(stepIndexAt(steps, 99_999)).toBe(4);
    expect(stepIndexAt([{ index: 0, startMs: 50, endMs: 60 }], 10)).toBeNull();
    expect(stepSeekMs(steps, 3)).toBe(3600);
    expect(stepSeekMs(steps, 42)).toBeNull();
  });

  it("steps forward and back by step ends", () => {
    expect(adjacentStep(steps, 900, 1)?.index).toBe(2);
    expect(adjacentStep(steps, 1200, 1)?.index).toBe(2);
    expect(adjacentStep(steps, 2500, -1)?.index).toBe(1);
    expect(adjacentStep(steps, 0, -1)).toBeNull();
    expect(adjacentStep(steps, 5000, 1)).toBeNull();
  });
});

describe("errorFacts", () => {
  const error = (i: number, excerpt: string | null) => ({ stepIndex: i, category: "command-error", signal: "exit-code", excerpt });

  it("keeps excerpts for the buttons' titles, cut at 100 characters", () => {
    const out = errorFacts([error(0, "x".repeat(150)), error(1, "short"), error(2, null)]);
    expect(out.map((e) => e.excerpt)).toEqual([`${"x".repeat(100)}…`, "short", null]);
    expect(out[0]).toMatchObject({ stepIndex: 0, category: "command-error", signal: "exit-code" });
  });

  it("drops every excerpt when there are too many errors for buttons, and keeps what navigation needs", () => {
    const many = Array.from({ length: MAX_ERROR_BUTTONS + 1 }, (_, i) => error(i, `bash: cmd${i}: command not found`));
    const out = errorFacts(many);
    expect(out.every((e) => e.excerpt === null)).toBe(true);
    expect(out.map((e) => e.stepIndex)).toEqual(many.map((e) => e.stepIndex));
    expect(errorFacts(many.slice(0, MAX_ERROR_BUTTONS)).every((e) => e.excerpt !== null)).toBe(true);
  });
});

describe("packErrorFacts", () => {
  it("round-trips, with each (category, signal) once and excerpts only when there are any", () => {
    const errors = [
      { stepIndex: 3, category: "test-failure", signal: "test-failure", excerpt: null },
      { stepIndex: 7, category: "runtime-exception", signal: "traceback", excerpt: "Traceback (most recent call last)" },
      { stepIndex: 9, category: "test-failure", signal: "test-failure", excerpt: null },
    ];
    const packed = packErrorFacts(errors);
    expect(packed.kinds).toEqual([
      ["test-failure", "test-failure"],
      ["runtime-exception", "traceback"],
    ]);
    expect(unpackErrorFacts(packed)).toEqual(errors);
    const bare = packErrorFacts(errors.map((e) => ({ ...e, excerpt: null })));
    expect(bare.excerpts).toBeUndefined();
    expect(unpackErrorFacts(bare)).toEqual(errors.map((e) => ({ ...e, excerpt: null })));
    expect(unpackErrorFacts(packErrorFacts([]))).toEqual([]);
  });
});
