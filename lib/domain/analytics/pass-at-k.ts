// The unbiased pass@k estimator (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"):
// for a problem with n samples of which c are correct, pass@k = 1 − C(n−c, k) / C(n, k). Recovery@k is the same
// estimator over a fork point's n recovery attempts. Computed as a running product so large n never overflows.

/** pass@k for one problem; null when k is outside 1..n (the estimator is undefined with fewer than k samples). */
export function passAtK(n: number, c: number, k: number): number | null {
  if (!Number.isInteger(k) || k < 1 || n < k) return null;
  if (c < 0 || c > n) throw new RangeError(`passAtK: c=${c} is outside 0..n=${n}`);
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** How many problems share a sample count n and a success count c (a grouped query's row). */
export interface SampleCell {
  n: number;
  c: number;
  problems: number;
}

/**
 * Mean pass@k over the problems with at least k samples, from grouped (n, c) counts — so the database sends one row
 * per distinct (n, c) instead of one per problem. Null when no problem has k samples.
 */
export function meanPassAtK(cells: readonly SampleCell[], k: number): number | null {
  let sum = 0;
  let problems = 0;
  for (const cell of cells) {
    const p = passAtK(cell.n, cell.c, k);
    if (p === null) continue;
    sum += p * cell.problems;
    problems += cell.problems;
  }
  return problems ? sum / problems : null;
}

export const RECOVERY_KS = [1, 2, 4, 8] as const;
export type RecoveryK = (typeof RECOVERY_KS)[number];

/** recovery@k for k = 1, 2, 4, 8 (null where no fork point has k evaluated attempts). */
export function recoveryAtK(cells: readonly SampleCell[]): Record<`${RecoveryK}`, number | null> {
  return { "1": meanPassAtK(cells, 1), "2": meanPassAtK(cells, 2), "4": meanPassAtK(cells, 4), "8": meanPassAtK(cells, 8) };
}
