import { describe, expect, it } from "vitest";
import { passRate, passAtKFigures, recoveryFigures, rolloutFigures, meanAttemptsToFirstSuccess, isKnownOutcome } from "./metrics.ts";
import { bootstrapMeanPassAtK } from "./bootstrap.ts";
import { passAtK } from "./pass-at-k.ts";

describe("pass rate", () => {
  it("leaves unknown outcomes out of the denominator and counts them apart", () => {
    const r = passRate({ passed: 5, failed: 8, unknown: 370 });
    expect(r).toMatchObject({ successes: 5, n: 13, unknown: 370 });
    expect(r.rate).toBeCloseTo(5 / 13, 12);
    expect(r.ci!.lo).toBeLessThan(5 / 13);
    expect(r.ci!.hi).toBeGreaterThan(5 / 13);
    expect(passRate({ passed: 0, failed: 0, unknown: 383 })).toMatchObject({ rate: null, ci: null, n: 0, unknown: 383 });
    expect(isKnownOutcome("unknown")).toBe(false);
    expect(isKnownOutcome("failed")).toBe(true);
  });
});

describe("rollout figures", () => {
  it("averages pass@k over cells with at least k known rollouts and says how many", () => {
    const f = rolloutFigures([
      { n: 4, c: 1, unknown: 2 },
      { n: 1, c: 1, unknown: 0 },
      { n: 0, c: 0, unknown: 5 },
    ]);
    expect(f).toMatchObject({ rollouts: 12, passed: 2, failed: 3, unknown: 7 });
    expect(f.passRate.rate).toBeCloseTo(2 / 5, 12);
    expect(f.passAtK["1"]).toBeCloseTo((0.25 + 1) / 2, 12);
    expect(f.passAtK["2"]).toBeCloseTo(passAtK(4, 1, 2)!, 12);
    expect(f.passAtK["8"]).toBeNull();
    expect(f.passAtKProblems).toEqual({ "1": 2, "2": 1, "4": 1, "8": 0 });
    expect(() => rolloutFigures([{ n: 1, c: 2, unknown: 0 }])).toThrow(RangeError);
  });
  it("weights grouped cells", () => {
    expect(passAtKFigures([{ n: 2, c: 1, problems: 3 }]).passAtKProblems["2"]).toBe(3);
  });
});

describe("recovery figures", () => {
  it("computes the rate over evaluated fork points, recovery@k coverage and attempts to first success", () => {
    const r = recoveryFigures([
      { n: 4, c: 2, forkPoints: 1, attempts: 5, firstSuccessSum: 1, firstSuccessCount: 1 },
      { n: 2, c: 0, forkPoints: 2, attempts: 4, firstSuccessSum: 0, firstSuccessCount: 0 },
      { n: 0, c: 0, forkPoints: 3, attempts: 2, firstSuccessSum: 0, firstSuccessCount: 0 },
    ]);
    expect(r).toMatchObject({
      forkPoints: 6,
      evaluatedForkPoints: 3,
      unevaluatedForkPoints: 3,
      attempts: 11,
      unknownAttempts: 3,
      successfulAttempts: 2,
      recoveredForkPoints: 1,
    });
    expect(r.recoveryRate).toBeCloseTo(1 / 3, 12);
    expect(r.recoveryAtKForkPoints).toEqual({ "1": 3, "2": 3, "4": 1, "8": 0 });
    expect(r.recoveryAtK["4"]).toBe(1);
    expect(r.recoveryAtK["8"]).toBeNull();
    expect(r.meanAttemptsToFirstSuccess).toBe(1);
    expect(meanAttemptsToFirstSuccess(0, 0)).toBeNull();
  });
});

describe("bootstrap interval for mean pass@k", () => {
  it("is reproducible, brackets the mean and is wide on one rollout", () => {
    const tasks = Array.from({ length: 20 }, (_, i) => ({ n: 4, c: i % 4 }));
    const ci = bootstrapMeanPassAtK(tasks, 1, { seed: 3 })!;
    expect(bootstrapMeanPassAtK(tasks, 1, { seed: 3 })).toEqual(ci);
    expect(ci.lo).toBeLessThan(0.375);
    expect(ci.hi).toBeGreaterThan(0.375);
    const one = bootstrapMeanPassAtK([{ n: 2, c: 1 }], 1, { seed: 3 })!;
    expect(one.hi - one.lo).toBeGreaterThan(0.5);
    expect(bootstrapMeanPassAtK([{ n: 1, c: 1 }], 2)).toBeNull();
  });
});
