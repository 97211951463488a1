import { describe, expect, it } from "vitest";
import { TimeMap } from "./time-map.ts";
import type { IdleGap } from "./recording.ts";

// Events at 0..1000, pause of 10 s, events 11000..12000, pause of 3 s, end at 15500.
const gaps: IdleGap[] = [
  [1000, 10_000],
  [12_000, 3000],
];

describe("TimeMap", () => {
  it("is the identity without a cap", () => {
    const m = new TimeMap(gaps, 15_500, null);
    expect(m.playDurationMs).toBe(15_500);
    expect(m.toPlay(7000)).toBe(7000);
    expect(m.toRec(7000)).toBe(7000);
  });

  it("shortens every pause longer than the cap to the cap", () => {
    const m = new TimeMap(gaps, 15_500, 2000);
    expect(m.playDurationMs).toBe(15_500 - 8000 - 1000);
    expect(m.toPlay(500)).toBe(500);
    expect(m.toPlay(2000)).toBe(2000); // 1 s into the first pause: still shown
    expect(m.toPlay(6000)).toBe(3000); // deep in the pause: clamped to the cap
    expect(m.toPlay(11_000)).toBe(3000); // the event after the pause follows the cap directly
    expect(m.toPlay(12_500)).toBe(4500);
    expect(m.toPlay(15_500)).toBe(6500);
  });

  it("maps presentation time back onto recording time, skipping the cut part of a pause", () => {
    const m = new TimeMap(gaps, 15_500, 2000);
    expect(m.toRec(500)).toBe(500);
    expect(m.toRec(2500)).toBe(2500);
    expect(m.toRec(3500)).toBe(11_500);
    expect(m.toRec(6500)).toBe(15_500);
    expect(m.toRec(99_999)).toBe(15_500);
    for (const rec of [0, 700, 1000, 2999, 11_000, 11_700, 12_000, 13_999, 15_000]) expect(m.toRec(m.toPlay(rec))).toBe(rec);
  });

  it("leaves pauses under the cap alone", () => {
    const m = new TimeMap(gaps, 15_500, 5000);
    expect(m.toPlay(12_500)).toBe(12_500 - 5000);
    expect(m.toPlay(14_000)).toBe(14_000 - 5000);
  });
});
