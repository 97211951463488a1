import { describe, expect, it } from "vitest";
import { meanPassAtK, passAtK, recoveryAtK } from "./pass-at-k.ts";
import { rateDifference, wilsonInterval } from "./intervals.ts";
import { pairByTask, pairedBootstrap } from "./bootstrap.ts";
import { mulberry32 as seededRandom } from "../random.ts";

describe("pass@k estimator", () => {
  it("matches 1 − C(n−c,k)/C(n,k) on hand-computed cases", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(4, 1, 2)).toBeCloseTo(1 - 3 / 6, 12);
    expect(passAtK(8, 2, 4)).toBeCloseTo(1 - 15 / 70, 12);
    expect(passAtK(10, 0, 3)).toBe(0);
    expect(passAtK(3, 3, 2)).toBe(1);
    expect(passAtK(3, 2, 2)).toBe(1);
  });
  it("is undefined with fewer than k samples and rejects impossible counts", () => {
    expect(passAtK(2, 1, 4)).toBeNull();
    expect(passAtK(0, 0, 1)).toBeNull();
    expect(() => passAtK(2, 3, 1)).toThrow(RangeError);
  });
  it("averages over problems with at least k samples, weighting grouped counts", () => {
    const cells = [
      { n: 4, c: 1, problems: 2 },
      { n: 2, c: 2, problems: 1 },
      { n: 1, c: 0, problems: 3 },
    ];
    expect(meanPassAtK(cells, 1)).toBeCloseTo((0.25 * 2 + 1 + 0) / 6, 12);
    expect(meanPassAtK(cells, 2)).toBeCloseTo((0.5 * 2 + 1) / 3, 12);
    expect(meanPassAtK(cells, 4)).toBe(1);
    expect(meanPassAtK(cells, 8)).toBeNull();
    expect(recoveryAtK([])).toEqual({ "1": null, "2": null, "4": null, "8": null });
  });
});

describe("intervals", () => {
  it("gives Wilson's published bounds", () => {
    const zero = wilsonInterval(0, 10)!;
    expect(zero.lo).toBe(0);
    expect(zero.hi).toBeCloseTo(0.2775, 4);
    const half = wilsonInterval(5, 10)!;
    expect(half.lo).toBeCloseTo(0.2366, 4);
    expect(half.hi).toBeCloseTo(0.7634, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
  it("gives Newcombe's hybrid score interval for a difference (Newcombe 1998, 56/70 − 48/80)", () => {
    const d = rateDifference({ successes: 48, n: 80 }, { successes: 56, n: 70 })!;
    expect(d.diff).toBeCloseTo(0.2, 10);
    expect(d.ci.lo).toBeCloseTo(0.0524, 4);
    expect(d.ci.hi).toBeCloseTo(0.3339, 4);
    expect(rateDifference({ successes: 0, n: 0 }, { successes: 1, n: 2 })).toBeNull();
  });
});

describe("paired bootstrap over tasks", () => {
  it("pairs only shared tasks", () => {
    const a = new Map([
      ["t1", { n: 2, c: 1 }],
      ["t2", { n: 1, c: 0 }],
    ]);
    const b = new Map([
      ["t2", { n: 3, c: 3 }],
      ["t3", { n: 1, c: 1 }],
    ]);
    expect(pairByTask(a, b)).toEqual([{ taskId: "t2", a: { n: 1, c: 0 }, b: { n: 3, c: 3 } }]);
    expect(pairedBootstrap(pairByTask(a, new Map([["zz", { n: 1, c: 1 }]])), 1)).toBeNull();
  });
  it("collapses to the difference when every task moves by the same amount", () => {
    const pairs = ["x", "y", "z"].map((taskId) => ({ taskId, a: { n: 4, c: 1 }, b: { n: 4, c: 3 } }));
    const r = pairedBootstrap(pairs, 1, { iterations: 200 })!;
    expect(r).toMatchObject({ tasks: 3, meanA: 0.25, meanB: 0.75, diff: 0.5 });
    expect(r.ci.lo).toBeCloseTo(0.5, 12);
    expect(r.ci.hi).toBeCloseTo(0.5, 12);
  });
  it("is reproducible for a seed and brackets the mean difference", () => {
    const pairs = Array.from({ length: 30 }, (_, i) => ({ taskId: `t${i}`, a: { n: 2, c: i % 3 === 0 ? 1 : 0 }, b: { n: 2, c: i % 2 } }));
    const one = pairedBootstrap(pairs, 1, { seed: 7 })!;
    expect(pairedBootstrap(pairs, 1, { seed: 7 })).toEqual(one);
    expect(one.ci.lo).toBeLessThan(one.diff);
    expect(one.ci.hi).toBeGreaterThan(one.diff);
    expect(pairedBootstrap(pairs, 4)).toBeNull();
    const r = seededRandom(1);
    const xs = Array.from({ length: 1000 }, r);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });
});
