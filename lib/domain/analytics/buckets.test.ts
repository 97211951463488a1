import { describe, expect, it } from "vitest";
import { integerBuckets, realBuckets } from "./buckets.ts";

describe("histogram buckets", () => {
  it("uses width 1 for small ranges and nice widths for large ones", () => {
    expect(integerBuckets(0, 3)).toEqual([
      { lo: 0, hi: 0 },
      { lo: 1, hi: 1 },
      { lo: 2, hi: 2 },
      { lo: 3, hi: 3 },
    ]);
    const b = integerBuckets(3, 240);
    expect(b[0]).toEqual({ lo: 0, hi: 19 });
    expect(b.at(-1)).toEqual({ lo: 240, hi: 259 });
    expect(b.length).toBeLessThanOrEqual(13);
    expect(integerBuckets(5, 4)).toEqual([]);
  });
  it("covers real ranges with the maximum inside the last bucket", () => {
    const b = realBuckets(0, 1);
    expect(b[0]).toEqual({ lo: 0, hi: 0.1 });
    expect(b).toHaveLength(10);
    expect(b.at(-1)).toEqual({ lo: 0.9, hi: 1 });
    expect(realBuckets(0.5, 0.5)).toEqual([{ lo: 0.5, hi: 0.5 }]);
    expect(realBuckets(-1, 1)[0]!.lo).toBe(-1);
  });
});
