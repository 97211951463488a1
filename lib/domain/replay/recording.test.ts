import { describe, expect, it } from "vitest";
import {
  parseChunkEvents,
  chunkEventsSchema,
  chunkIndexAt,
  clampEventData,
  collectGaps,
  countEventsUpTo,
  MAX_EVENT_CHARS,
  parseResize,
  type IdleGap,
  type ReplayEvent,
} from "./recording.ts";

describe("recording model", () => {
  const chunks = [{ startMs: 0 }, { startMs: 100 }, { startMs: 100 }, { startMs: 500 }];

  it("finds the chunk holding a time (the last one starting at or before it)", () => {
    expect(chunkIndexAt(chunks, 0)).toBe(0);
    expect(chunkIndexAt(chunks, 99)).toBe(0);
    expect(chunkIndexAt(chunks, 100)).toBe(2);
    expect(chunkIndexAt(chunks, 10_000)).toBe(3);
    expect(chunkIndexAt([], 50)).toBe(0);
  });

  it("counts events up to a time", () => {
    const ev: ReplayEvent[] = [
      [0, "o", "a"],
      [10, "o", "b"],
      [10, "o", "c"],
      [20, "o", "d"],
    ];
    expect(countEventsUpTo(ev, -1)).toBe(0);
    expect(countEventsUpTo(ev, 10)).toBe(3);
    expect(countEventsUpTo(ev, 99)).toBe(4);
  });

  it("collects pauses longer than the threshold across chunks", () => {
    const gaps: IdleGap[] = [];
    const last = collectGaps(
      null,
      [
        [0, "o", ""],
        [100, "o", ""],
        [2100, "o", ""],
      ],
      500,
      gaps,
    );
    collectGaps(
      last,
      [
        [2900, "o", ""],
        [3000, "o", ""],
      ],
      500,
      gaps,
    );
    expect(gaps).toEqual([
      [100, 2000],
      [2100, 800],
    ]);
  });

  it("clamps giant events, keeping head and tail", () => {
    expect(clampEventData("short")).toBe("short");
    const big = "h" + "x".repeat(3 * MAX_EVENT_CHARS) + "t";
    const c = clampEventData(big);
    expect(c.length).toBeLessThan(MAX_EVENT_CHARS + 200);
    expect(c.startsWith("h")).toBe(true);
    expect(c.endsWith("t")).toBe(true);
    expect(c).toContain("characters of output omitted");
    expect(clampEventData(c)).toBe(c);
  });

  it("parses stored chunks and names the first bad event", () => {
    expect(parseChunkEvents('[[0,"o","a"],[3,"r","80x24"]]', "chunk 1")).toEqual([
      [0, "o", "a"],
      [3, "r", "80x24"],
    ]);
    expect(() => parseChunkEvents('[[0,"o","a"],[1,"q","b"]]', "recording r chunk 4")).toThrow(
      "recording r chunk 4: events[1] is not a [ms, code, data] event",
    );
    expect(() => parseChunkEvents("{", "chunk 2")).toThrow(/chunk 2: events are not valid JSON/);
  });

  it("parses resize events and validates stored chunks", () => {
    expect(parseResize("120x32")).toEqual({ cols: 120, rows: 32 });
    expect(parseResize("0x5")).toBeNull();
    expect(parseResize("abc")).toBeNull();
    expect(
      chunkEventsSchema.safeParse([
        [0, "o", "x"],
        [5, "m", "step 1"],
      ]).success,
    ).toBe(true);
    expect(chunkEventsSchema.safeParse([[0.5, "o", "x"]]).success).toBe(false);
    expect(chunkEventsSchema.safeParse([[0, "z", "x"]]).success).toBe(false);
  });
});
