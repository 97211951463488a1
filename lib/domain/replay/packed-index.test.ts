import { describe, expect, it } from "vitest";
import { packReplayIndex, unpackReplayIndex } from "./packed-index.ts";
import type { ReplayIndex } from "./recording.ts";

const index: ReplayIndex = {
  trajectoryId: "t1",
  source: "recording",
  format: "asciicast-v2",
  cols: 120,
  rows: 36,
  durationMs: 9_917_900,
  idleTimeLimitMs: 2000,
  chunks: [
    { seq: 0, startMs: 0, endMs: 4000 },
    { seq: 1, startMs: 4000, endMs: 9000 },
    { seq: 2, startMs: 9001, endMs: 9_917_900 },
  ],
  // Steps may skip indices (turns without a command) and start at the same instant.
  steps: [
    { index: 0, startMs: 20, endMs: 900 },
    { index: 2, startMs: 900, endMs: 900 },
    { index: 3, startMs: 900, endMs: 5000 },
    { index: 7, startMs: 9_000_000, endMs: 9_917_900 },
  ],
  stepTimingSource: "markers",
  gaps: [
    [100, 2500],
    [5000, 12_000],
    [9_000_001, 40_000],
  ],
};

describe("packed replay index", () => {
  it("round-trips exactly", () => {
    expect(unpackReplayIndex(JSON.parse(JSON.stringify(packReplayIndex(index))))).toEqual(index);
  });

  it("is smaller than the objects on a long index", () => {
    const steps = Array.from({ length: 1600 }, (_, i) => ({ index: i, startMs: i * 6000 + 17, endMs: i * 6000 + 4000 }));
    const gaps = Array.from({ length: 3600 }, (_, i): [number, number] => [i * 2700 + 5, 2100 + (i % 7)]);
    const long = { ...index, steps, gaps, chunks: index.chunks };
    const packed = JSON.stringify(packReplayIndex(long)).length;
    expect(unpackReplayIndex(packReplayIndex(long))).toEqual(long);
    expect(packed).toBeLessThan(JSON.stringify(long).length / 2);
  });

  it("keeps chunk numbers that do not start at 0", () => {
    const odd = {
      ...index,
      chunks: [
        { seq: 3, startMs: 0, endMs: 1 },
        { seq: 5, startMs: 1, endMs: 1 },
      ],
    };
    expect(unpackReplayIndex(packReplayIndex(odd))).toEqual(odd);
  });
});
