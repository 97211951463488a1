// Paired bootstrap over tasks for a difference in mean pass@k between two runs. Resampling whole tasks (not
// rollouts) keeps each task's samples together, which is the unit the benchmark varies over; pairing on shared
// tasks removes task difficulty from the comparison. A seeded RNG makes the interval reproducible run to run.
import { passAtK } from "./pass-at-k.ts";
import type { Interval } from "./intervals.ts";
import { mulberry32 } from "../random.ts";

export interface TaskSamples {
  n: number;
  c: number;
}

/** One task that both runs attempted, with each run's samples on it. */
export interface PairedTask {
  taskId: string;
  a: TaskSamples;
  b: TaskSamples;
}

/** Tasks present in both maps (taskId → samples), sorted by id so the bootstrap is deterministic. */
export function pairByTask(a: ReadonlyMap<string, TaskSamples>, b: ReadonlyMap<string, TaskSamples>): PairedTask[] {
  return [...a.keys()]
    .filter((id) => b.has(id))
    .sort()
    .map((taskId) => ({ taskId, a: a.get(taskId)!, b: b.get(taskId)! }));
}

export interface PairedDifference {
  /** Tasks both runs have with at least k samples each. */
  tasks: number;
  meanA: number;
  meanB: number;
  /** meanB − meanA */
  diff: number;
  ci: Interval;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Mean pass@k of b minus a over paired tasks, with a percentile bootstrap 95% interval (tasks resampled with
 * replacement). Null when no shared task has k samples in both runs.
 */
export function pairedBootstrap(
  pairs: readonly PairedTask[],
  k: number,
  opts: { iterations?: number; seed?: number } = {},
): PairedDifference | null {
  const scored = pairs
    .map((p) => ({ a: passAtK(p.a.n, p.a.c, k), b: passAtK(p.b.n, p.b.c, k) }))
    .filter((s): s is { a: number; b: number } => s.a !== null && s.b !== null);
  if (!scored.length) return null;
  const diffs = scored.map((s) => s.b - s.a);
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const iterations = opts.iterations ?? 2000;
  const rand = mulberry32(opts.seed ?? 1);
  const stats: number[] = new Array(iterations);
  for (let i = 0; i < iterations; i++) {
    let sum = 0;
    for (let j = 0; j < diffs.length; j++) sum += diffs[Math.floor(rand() * diffs.length)]!;
    stats[i] = sum / diffs.length;
  }
  stats.sort((x, y) => x - y);
  return {
    tasks: scored.length,
    meanA: mean(scored.map((s) => s.a)),
    meanB: mean(scored.map((s) => s.b)),
    diff: mean(diffs),
    ci: { lo: quantile(stats, 0.025), hi: quantile(stats, 0.975) },
  };
}

/** Draws from Binomial(n, p): n Bernoulli trials for small n, the normal approximation (rounded, clamped) beyond. */
function binomialDraw(n: number, p: number, rand: () => number): number {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  if (n <= 64) {
    let c = 0;
    for (let i = 0; i < n; i++) if (rand() < p) c++;
    return c;
  }
  // Box–Muller; for n > 64 the binomial is close enough to normal for a 95% band.
  const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Math.min(n, Math.max(0, Math.round(n * p + z * Math.sqrt(n * p * (1 - p)))));
}

/**
 * 95% interval for mean pass@k over tasks by a two-level bootstrap: tasks resampled with replacement, then each
 * drawn task's passes redrawn from Binomial(n, c/n) — so the band is wide both when few tasks and when few rollouts
 * per task carry the mean (one rollout per task gives a wide band, not a zero-width one). Tasks with fewer than k
 * samples are left out, as in the mean. Null when no task has k samples.
 */
export function bootstrapMeanPassAtK(
  tasks: readonly TaskSamples[],
  k: number,
  opts: { iterations?: number; seed?: number } = {},
): Interval | null {
  const usable = tasks.filter((t) => t.n >= k);
  if (!usable.length) return null;
  const iterations = opts.iterations ?? 1000;
  const rand = mulberry32(opts.seed ?? 1);
  const stats: number[] = new Array(iterations);
  for (let i = 0; i < iterations; i++) {
    let sum = 0;
    for (let j = 0; j < usable.length; j++) {
      const t = usable[Math.floor(rand() * usable.length)]!;
      sum += passAtK(t.n, binomialDraw(t.n, t.c / t.n, rand), k)!;
    }
    stats[i] = sum / usable.length;
  }
  stats.sort((x, y) => x - y);
  return { lo: quantile(stats, 0.025), hi: quantile(stats, 0.975) };
}
