// Histogram bucket edges with "nice" widths (1, 2, 5 × 10^k), so a distribution reads 0–9, 10–19, … rather than
// 0–7.3. Pure: the database groups rows into these buckets (lib/db/repositories/analytics/distributions.ts).

export interface Bucket {
  /** Inclusive lower bound. */
  lo: number;
  /** Inclusive upper bound for whole numbers; exclusive for reals except in the last bucket. */
  hi: number;
}

function niceWidth(raw: number, integer: boolean): number {
  if (!(raw > 0)) return 1;
  const exp = Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    const w = m * 10 ** exp;
    if (w >= raw - 1e-12) return integer ? Math.max(1, Math.round(w)) : Number(w.toPrecision(12));
  }
  return 10 ** (exp + 1);
}

/** Whole-number buckets covering min..max (inclusive), at most `maxBuckets` of them. */
export function integerBuckets(min: number, max: number, maxBuckets = 12): Bucket[] {
  if (max < min) return [];
  const width = niceWidth((max - min + 1) / maxBuckets, true);
  const out: Bucket[] = [];
  for (let lo = Math.floor(min / width) * width; lo <= max; lo += width) out.push({ lo, hi: lo + width - 1 });
  return out;
}

/** Real-number buckets [lo, hi) covering min..max (the last one closed), at most about `maxBuckets` of them. */
export function realBuckets(min: number, max: number, maxBuckets = 10): Bucket[] {
  if (max < min) return [];
  if (max === min) return [{ lo: min, hi: max }];
  const width = niceWidth((max - min) / maxBuckets, false);
  const out: Bucket[] = [];
  const start = Math.floor(min / width) * width;
  for (let i = 0; ; i++) {
    const lo = Number((start + i * width).toPrecision(12));
    const hi = Number((start + (i + 1) * width).toPrecision(12));
    out.push({ lo, hi });
    if (hi >= max) break;
  }
  return out;
}
