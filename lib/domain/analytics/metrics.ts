// The researcher-facing metrics, each defined once: pass rate, pass@k, recovery rate, recovery@k and attempts to
// first success. Pages, CLI and API all compute from these, so a run shows the same number everywhere.
// A trajectory whose outcome is unknown (SFT JSONL, most imported formats) is neither a pass nor a failure: it is
// left out of every rate's denominator and reported as its own count, so 5 passes among 383 rollouts of which 370
// are unknown read "5 / 13, 370 unknown", not "1 %".
import { meanPassAtK, passAtK, RECOVERY_KS, type RecoveryK, type SampleCell } from "./pass-at-k.ts";
import { wilsonInterval, type Interval } from "./intervals.ts";

/** The two outcomes a rate can count; every other value (unknown) is excluded from denominators. */
export const KNOWN_OUTCOMES = ["passed", "failed"] as const;
export const isKnownOutcome = (outcome: string): boolean => outcome === "passed" || outcome === "failed";

/** The k values every pass@k and recovery@k figure is reported at. */
export const METRIC_KS = RECOVERY_KS;
export type KKey = `${RecoveryK}`;
export const K_KEYS: readonly KKey[] = METRIC_KS.map((k) => `${k}` as KKey);

export interface OutcomeTally {
  passed: number;
  failed: number;
  unknown: number;
}

/** A share with its Wilson 95% interval; `n` counts known outcomes only, `unknown` what was left out. */
export interface RateEstimate {
  successes: number;
  n: number;
  unknown: number;
  /** successes / n; null when n = 0 (nothing known, so no rate — not 0 %). */
  rate: number | null;
  ci: Interval | null;
}

export function rateEstimate(successes: number, n: number, unknown = 0): RateEstimate {
  return { successes, n, unknown, rate: n > 0 ? successes / n : null, ci: wilsonInterval(successes, n) };
}

/** Pass rate of original rollouts: passed / (passed + failed). */
export function passRate(t: OutcomeTally): RateEstimate {
  return rateEstimate(t.passed, t.passed + t.failed, t.unknown);
}

/** Mean unbiased pass@k at each reported k, and how many problems (with ≥ k known samples) each value rests on. */
export interface PassAtKFigures {
  passAtK: Record<KKey, number | null>;
  /** Problems with at least k known-outcome samples: the ones behind passAtK[k]. */
  passAtKProblems: Record<KKey, number>;
}

export function passAtKFigures(cells: readonly SampleCell[]): PassAtKFigures {
  const passAt = {} as Record<KKey, number | null>;
  const problems = {} as Record<KKey, number>;
  for (const k of METRIC_KS) {
    passAt[`${k}`] = meanPassAtK(cells, k);
    problems[`${k}`] = cells.reduce((sum, cell) => sum + (cell.n >= k ? cell.problems : 0), 0);
  }
  return { passAtK: passAt, passAtKProblems: problems };
}

/** Original rollouts of one (run, task) pair: n with a known outcome, c passed, and how many are unknown. */
export interface RolloutCell {
  n: number;
  c: number;
  unknown: number;
}

export interface RolloutFigures extends PassAtKFigures {
  /** Every original rollout, unknown outcomes included. */
  rollouts: number;
  passed: number;
  failed: number;
  unknown: number;
  passRate: RateEstimate;
}

/**
 * Figures of a set of (run, task) cells — a run's tasks, a task's runs, one checkpoint. pass@k is the mean over the
 * cells with at least k known-outcome rollouts (each cell is one problem); unknown rollouts never enter n.
 */
export function rolloutFigures(cells: readonly RolloutCell[]): RolloutFigures {
  let passed = 0,
    known = 0,
    unknown = 0;
  for (const x of cells) {
    if (x.c < 0 || x.c > x.n || x.unknown < 0) throw new RangeError(`rolloutFigures: c=${x.c}, n=${x.n}, unknown=${x.unknown}`);
    passed += x.c;
    known += x.n;
    unknown += x.unknown;
  }
  const failed = known - passed;
  return {
    rollouts: known + unknown,
    passed,
    failed,
    unknown,
    passRate: passRate({ passed, failed, unknown }),
    ...passAtKFigures(cells.filter((x) => x.n > 0).map((x) => ({ n: x.n, c: x.c, problems: 1 }))),
  };
}

/** pass@k of one (run, task) cell (the task page's per-run columns). */
export const cellPassAtK = (x: RolloutCell, k: number): number | null => passAtK(x.n, x.c, k);

/** Fork points sharing the same (n, c): n attempts with a known outcome, c of them passed. */
export interface ForkPointCell {
  n: number;
  c: number;
  forkPoints: number;
  /** All attempts, unknown outcomes included. */
  attempts: number;
  /** Fork points whose category comes from an annotator's label (0 where categories do not matter). */
  labelledForkPoints?: number;
  /** Sum and count of the 1-based position of the first successful attempt, over fork points with one. */
  firstSuccessSum: number;
  firstSuccessCount: number;
}

export interface RecoveryFigures {
  forkPoints: number;
  /** Fork points whose category is an annotator's label (the rest use the detected category). */
  labelledForkPoints: number;
  /** Fork points with at least one attempt of known outcome — the denominator of the recovery rate. */
  evaluatedForkPoints: number;
  /** Fork points without any known-outcome attempt (never attempted, or every attempt unknown): not in the rate. */
  unevaluatedForkPoints: number;
  /** Every attempt, unknown outcomes included. */
  attempts: number;
  /** Attempts with an unknown outcome (in no denominator). */
  unknownAttempts: number;
  successfulAttempts: number;
  recoveredForkPoints: number;
  /** recoveredForkPoints / evaluatedForkPoints; null when no fork point has a known-outcome attempt. */
  recoveryRate: number | null;
  /** Wilson 95% interval of the recovery rate. */
  recoveryRateCi: Interval | null;
  /** Unbiased recovery@k over fork points with at least k known-outcome attempts (null when there are none). */
  recoveryAtK: Record<KKey, number | null>;
  /** How many fork points had at least k known-outcome attempts: the ones recoveryAtK[k] rests on. */
  recoveryAtKForkPoints: Record<KKey, number>;
  /** Mean 1-based position of the first successful attempt, over recovered fork points. */
  meanAttemptsToFirstSuccess: number | null;
}

/** Recovery rate: fork points with a successful attempt among those with an attempt of known outcome. */
export const recoveryRate = (recovered: number, evaluated: number, unevaluated = 0): RateEstimate =>
  rateEstimate(recovered, evaluated, unevaluated);

/** Attempts to first success: the mean 1-based position of the first passing attempt over recovered fork points. */
export const meanAttemptsToFirstSuccess = (sum: number, count: number): number | null => (count > 0 ? sum / count : null);

export function recoveryFigures(cells: readonly ForkPointCell[]): RecoveryFigures {
  let forkPoints = 0,
    labelled = 0,
    evaluated = 0,
    attempts = 0,
    known = 0,
    successful = 0,
    recovered = 0,
    firstSum = 0,
    firstCount = 0;
  for (const x of cells) {
    forkPoints += x.forkPoints;
    labelled += x.labelledForkPoints ?? 0;
    attempts += x.attempts;
    known += x.n * x.forkPoints;
    successful += x.c * x.forkPoints;
    if (x.n > 0) evaluated += x.forkPoints;
    if (x.c > 0) recovered += x.forkPoints;
    firstSum += x.firstSuccessSum;
    firstCount += x.firstSuccessCount;
  }
  const rate = recoveryRate(recovered, evaluated, forkPoints - evaluated);
  const atK = passAtKFigures(cells.map((x) => ({ n: x.n, c: x.c, problems: x.forkPoints })));
  return {
    forkPoints,
    labelledForkPoints: labelled,
    evaluatedForkPoints: evaluated,
    unevaluatedForkPoints: forkPoints - evaluated,
    attempts,
    unknownAttempts: attempts - known,
    successfulAttempts: successful,
    recoveredForkPoints: recovered,
    recoveryRate: rate.rate,
    recoveryRateCi: rate.ci,
    recoveryAtK: atK.passAtK,
    recoveryAtKForkPoints: atK.passAtKProblems,
    meanAttemptsToFirstSuccess: meanAttemptsToFirstSuccess(firstSum, firstCount),
  };
}
