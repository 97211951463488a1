// Confidence intervals for rates. Wilson's score interval behaves at 0 and 1 and for small n, where the normal
// ("Wald") interval collapses to zero width; Newcombe's hybrid score method turns two Wilson intervals into an
// interval for their difference (Newcombe 1998, method 10), which is what a run comparison reports.

export interface Interval {
  lo: number;
  hi: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Wilson score interval for `successes` out of `n`; null when n = 0. */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  if (successes < 0 || successes > n) throw new RangeError(`wilsonInterval: ${successes} successes out of ${n}`);
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

export interface RateDifference {
  /** pB − pA */
  diff: number;
  ci: Interval;
}

/** Difference of two independent proportions (b − a) with Newcombe's hybrid score interval; null if either n = 0. */
export function rateDifference(a: { successes: number; n: number }, b: { successes: number; n: number }, z = Z95): RateDifference | null {
  const wa = wilsonInterval(a.successes, a.n, z);
  const wb = wilsonInterval(b.successes, b.n, z);
  if (!wa || !wb) return null;
  const pa = a.successes / a.n;
  const pb = b.successes / b.n;
  const diff = pb - pa;
  return {
    diff,
    ci: {
      lo: diff - Math.sqrt((pb - wb.lo) ** 2 + (wa.hi - pa) ** 2),
      hi: diff + Math.sqrt((wb.hi - pb) ** 2 + (pa - wa.lo) ** 2),
    },
  };
}
