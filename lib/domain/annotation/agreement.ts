/**
 * Inter-annotator agreement: Cohen's κ (two annotators), Fleiss' κ (a fixed number of ratings per item) and
 * Krippendorff's α (any number of annotators, missing ratings allowed; nominal or ordinal distance), plus the
 * matrices behind them. Pure functions over plain ratings so the CLI, the queue page and tests share them.
 */

/** One item and the value each annotator gave it (annotator → value). */
export interface RatedItem {
  item: string;
  ratings: ReadonlyMap<string, string>;
}

export type Level = "nominal" | "ordinal";

export interface ConfusionMatrix {
  /** Row and column labels, in the order given (schema option order) then any unknown values. */
  values: string[];
  /** counts[i][j]: rows = first annotator (or value c), columns = second annotator (or value k). */
  counts: number[][];
}

/** Only items at least two annotators labelled take part (an item one person labelled says nothing about agreement). */
export function pairable(items: readonly RatedItem[]): RatedItem[] {
  return items.filter((i) => i.ratings.size >= 2);
}

function orderValues(order: readonly string[], seen: Iterable<string>): string[] {
  const out = [...order];
  const known = new Set(order);
  for (const v of seen) {
    if (known.has(v)) continue;
    known.add(v);
    out.push(v);
  }
  return out;
}

/** Cohen's κ for exactly two annotators over the items both labelled; null when it does not apply. */
export function cohenKappa(
  items: readonly RatedItem[],
  a: string,
  b: string,
  order: readonly string[] = [],
): { kappa: number | null; n: number; confusion: ConfusionMatrix } {
  const pairs: [string, string][] = [];
  for (const i of items) {
    const va = i.ratings.get(a);
    const vb = i.ratings.get(b);
    if (va !== undefined && vb !== undefined) pairs.push([va, vb]);
  }
  const values = orderValues(order, pairs.flat());
  const index = new Map(values.map((v, i) => [v, i]));
  const counts = values.map(() => values.map(() => 0));
  for (const [va, vb] of pairs) counts[index.get(va)!]![index.get(vb)!]!++;
  const n = pairs.length;
  if (n === 0) return { kappa: null, n, confusion: { values, counts } };
  let agree = 0;
  let expected = 0;
  for (let i = 0; i < values.length; i++) {
    agree += counts[i]![i]!;
    const row = counts[i]!.reduce((s, x) => s + x, 0);
    const col = counts.reduce((s, r) => s + r[i]!, 0);
    expected += (row / n) * (col / n);
  }
  const po = agree / n;
  // Both annotators used one and the same value throughout: chance agreement is 1 and κ is undefined.
  if (expected === 1) return { kappa: null, n, confusion: { values, counts } };
  return { kappa: (po - expected) / (1 - expected), n, confusion: { values, counts } };
}

/**
 * Fleiss' κ from a subjects × categories table of counts (each row sums to the same number of raters).
 * Returns null when rows disagree on the number of raters, there are fewer than two, or chance agreement is 1.
 */
export function fleissKappaFromCounts(table: readonly (readonly number[])[]): number | null {
  const N = table.length;
  if (N === 0) return null;
  const n = table[0]!.reduce((s, x) => s + x, 0);
  if (n < 2 || table.some((r) => r.reduce((s, x) => s + x, 0) !== n)) return null;
  const k = table[0]!.length;
  let pBar = 0;
  const colTotals = new Array<number>(k).fill(0);
  for (const row of table) {
    let sq = 0;
    row.forEach((x, j) => {
      sq += x * x;
      colTotals[j]! += x;
    });
    pBar += (sq - n) / (n * (n - 1));
  }
  pBar /= N;
  const pe = colTotals.reduce((s, c) => s + (c / (N * n)) ** 2, 0);
  if (pe === 1) return null;
  return (pBar - pe) / (1 - pe);
}

/** Fleiss' κ over items; null unless every pairable item has the same number of ratings. */
export function fleissKappa(items: readonly RatedItem[], order: readonly string[] = []): number | null {
  const rated = pairable(items);
  const values = orderValues(
    order,
    rated.flatMap((i) => [...i.ratings.values()]),
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const table = rated.map((i) => {
    const row = values.map(() => 0);
    for (const v of i.ratings.values()) row[index.get(v)!]!++;
    return row;
  });
  return fleissKappaFromCounts(table);
}

/** Krippendorff's coincidence matrix over pairable values (each unit's ordered pairs weighted 1/(m_u − 1)). */
export function coincidenceMatrix(items: readonly RatedItem[], order: readonly string[] = []): ConfusionMatrix {
  const rated = pairable(items);
  const values = orderValues(
    order,
    rated.flatMap((i) => [...i.ratings.values()]),
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const counts = values.map(() => values.map(() => 0));
  for (const i of rated) {
    const vs = [...i.ratings.values()].map((v) => index.get(v)!);
    const w = 1 / (vs.length - 1);
    for (let x = 0; x < vs.length; x++) for (let y = 0; y < vs.length; y++) if (x !== y) counts[vs[x]!]![vs[y]!]! += w;
  }
  return { values, counts };
}

/**
 * Krippendorff's α. Nominal: δ² = 0 for equal values, 1 otherwise. Ordinal: the values' order is `order` (the
 * schema's scale), δ²(c,k) = (Σ_{g=c..k} n_g − (n_c + n_k)/2)² with n_g the marginal totals (Krippendorff 2011).
 * Null when there are no pairable values or no variation at all (expected disagreement 0).
 */
export function krippendorffAlpha(items: readonly RatedItem[], level: Level, order: readonly string[] = []): number | null {
  const { values, counts } = coincidenceMatrix(items, order);
  const marg = counts.map((r) => r.reduce((s, x) => s + x, 0));
  const n = marg.reduce((s, x) => s + x, 0);
  if (n <= 1) return null;
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    if (level === "nominal") return 1;
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += marg[g]!;
    return (sum - (marg[c]! + marg[k]!) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < values.length; c++) {
    for (let k = 0; k < values.length; k++) {
      const d = delta2(c, k);
      observed += counts[c]![k]! * d;
      expected += marg[c]! * marg[k]! * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

export interface AgreementReport {
  items: number;
  annotators: number;
  cohenKappa: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  level: Level;
  /** Two annotators: their confusion matrix; more: Krippendorff's coincidence matrix. */
  matrix: ConfusionMatrix;
  matrixKind: "confusion" | "coincidence";
}

/** Everything the queue page and `reterm agreement` show, over items at least two annotators labelled. */
export function agreementReport(items: readonly RatedItem[], level: Level, order: readonly string[] = []): AgreementReport {
  const rated = pairable(items);
  const annotators = [...new Set(rated.flatMap((i) => [...i.ratings.keys()]))].sort();
  const cohen = annotators.length === 2 ? cohenKappa(rated, annotators[0]!, annotators[1]!, order) : null;
  return {
    items: rated.length,
    annotators: annotators.length,
    cohenKappa: cohen?.kappa ?? null,
    fleissKappa: fleissKappa(rated, order),
    krippendorffAlpha: krippendorffAlpha(rated, level, order),
    level,
    matrix: cohen ? cohen.confusion : coincidenceMatrix(rated, order),
    matrixKind: cohen ? "confusion" : "coincidence",
  };
}
