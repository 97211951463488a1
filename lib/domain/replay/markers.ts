// Timeline markers (steps, detected errors, fork points, the end result) and navigation between them.
// Seeking to a step, error or fork lands at the END of that step: the screen then shows the command and its
// output — what the agent observed when it chose its next action, and the state a recovery attempt forks from.
import type { StepTiming } from "./recording.ts";

export type MarkerKind = "step" | "error" | "fork" | "end";

export interface ReplayMarker {
  kind: MarkerKind;
  /** Recording time the marker seeks to. */
  atMs: number;
  stepIndex: number | null;
  label: string;
  /** Errors come from the automatic detector: suggestions until a person labels them. */
  suggestion: boolean;
}

export interface MarkerInput {
  steps: readonly StepTiming[];
  errors: readonly { stepIndex: number; category: string; signal: string; excerpt: string | null }[];
  /** Fork points of this trajectory; `label` overrides the default text (e.g. "forked from the parent here"). */
  forks: readonly { stepIndex: number; attempts: number; errorCategory: string | null; label?: string }[];
  end: { durationMs: number; outcome: string; reward: number | null };
}

/**
 * Past this many detected errors the timeline draws them as dots (no buttons, no titles): reached with `e` or the
 * Next error button instead. Hundreds of buttons would swamp the page and its tab order.
 */
export const MAX_ERROR_BUTTONS = 150;
const EXCERPT_CHARS = 100;

type ErrorFact = MarkerInput["errors"][number];

/**
 * The detected errors as the page sends them to the replay: excerpts cut for the buttons' titles, and dropped when
 * there are too many errors for buttons — nothing would show them, and on a long trajectory they were over half of
 * the page's data (≈ 140 KB for ~500 errors), all parsed before the first frame.
 */
export function errorFacts(errors: readonly ErrorFact[]): ErrorFact[] {
  const titled = errors.length <= MAX_ERROR_BUTTONS;
  return errors.map(({ stepIndex, category, signal, excerpt }) => ({
    stepIndex,
    category,
    signal,
    excerpt: !titled || !excerpt ? null : excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS)}…` : excerpt,
  }));
}

/**
 * Detected errors as the page sends them (errorFacts' output, packed): each distinct (category, signal) once, then
 * [stepIndex, kind] pairs, and the excerpts only when there are any. ≈ 8 bytes an error instead of ≈ 85 — on a long
 * trajectory (~1,000 errors) the objects were half of the replay's page data, all parsed before the first frame.
 */
export interface PackedErrorFacts {
  kinds: [category: string, signal: string][];
  /** stepIndex, index into kinds, … */
  at: number[];
  excerpts?: (string | null)[];
}

export function packErrorFacts(errors: readonly ErrorFact[]): PackedErrorFacts {
  const kinds: [string, string][] = [];
  const kindOf = new Map<string, number>();
  const at: number[] = [];
  for (const e of errors) {
    const key = JSON.stringify([e.category, e.signal]);
    let k = kindOf.get(key);
    if (k === undefined) {
      k = kinds.push([e.category, e.signal]) - 1;
      kindOf.set(key, k);
    }
    at.push(e.stepIndex, k);
  }
  return errors.some((e) => e.excerpt !== null) ? { kinds, at, excerpts: errors.map((e) => e.excerpt) } : { kinds, at };
}

export function unpackErrorFacts(p: PackedErrorFacts): ErrorFact[] {
  const out: ErrorFact[] = [];
  for (let i = 0; i + 1 < p.at.length; i += 2) {
    const kind = p.kinds[p.at[i + 1]!];
    if (!kind) continue;
    out.push({ stepIndex: p.at[i]!, category: kind[0], signal: kind[1], excerpt: p.excerpts?.[i / 2] ?? null });
  }
  return out;
}

/** All markers in time order (at equal times: step, error, fork, end). */
export function buildMarkers(input: MarkerInput, label: (category: string) => string = (c) => c): ReplayMarker[] {
  const byIndex = new Map(input.steps.map((s) => [s.index, s]));
  const out: ReplayMarker[] = [];
  for (const s of input.steps) out.push({ kind: "step", atMs: s.endMs, stepIndex: s.index, label: `Step ${s.index}`, suggestion: false });
  for (const e of input.errors) {
    const s = byIndex.get(e.stepIndex);
    if (!s) continue;
    out.push({
      kind: "error",
      atMs: s.endMs,
      stepIndex: e.stepIndex,
      label: `${label(e.category)} (${e.signal})${e.excerpt ? `: ${e.excerpt}` : ""}`,
      suggestion: true,
    });
  }
  for (const f of input.forks) {
    const s = byIndex.get(f.stepIndex);
    if (!s) continue;
    const text =
      f.label ??
      `Fork point after step ${f.stepIndex} · ${f.attempts} attempt${f.attempts === 1 ? "" : "s"}${f.errorCategory ? ` · ${label(f.errorCategory)}` : ""}`;
    out.push({ kind: "fork", atMs: s.endMs, stepIndex: f.stepIndex, label: text, suggestion: false });
  }
  const reward = input.end.reward === null ? "" : ` · reward ${input.end.reward.toFixed(2)}`;
  out.push({ kind: "end", atMs: input.end.durationMs, stepIndex: null, label: `End: ${input.end.outcome}${reward}`, suggestion: false });
  const order: Record<MarkerKind, number> = { step: 0, error: 1, fork: 2, end: 3 };
  return out.sort((a, b) => a.atMs - b.atMs || order[a.kind] - order[b.kind]);
}

/** Tolerance so that "next" from a marker's own position moves on instead of returning the same marker. */
const EPS_MS = 1;

/** The next (dir 1) or previous (dir -1) marker of a kind, strictly after/before `fromMs`. */
export function adjacentMarker(markers: readonly ReplayMarker[], kind: MarkerKind, fromMs: number, dir: 1 | -1): ReplayMarker | null {
  if (dir === 1) return markers.find((m) => m.kind === kind && m.atMs > fromMs + EPS_MS) ?? null;
  for (let i = markers.length - 1; i >= 0; i--) {
    const m = markers[i]!;
    if (m.kind === kind && m.atMs < fromMs - EPS_MS) return m;
  }
  return null;
}

/** The step being shown at `ms`: the last step that started at or before it (null before the first step). */
export function stepIndexAt(steps: readonly StepTiming[], ms: number): number | null {
  let lo = 0;
  let hi = steps.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid]!.startMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? null : steps[found]!.index;
}

/** Where seeking to a step lands (its end), or null when the step is unknown. */
export function stepSeekMs(steps: readonly StepTiming[], index: number): number | null {
  const s = steps[index]?.index === index ? steps[index] : steps.find((x) => x.index === index);
  return s ? s.endMs : null;
}

/** Next/previous step end strictly after/before `fromMs` (steps with the same end are one stop). */
export function adjacentStep(steps: readonly StepTiming[], fromMs: number, dir: 1 | -1): StepTiming | null {
  if (dir === 1) return steps.find((s) => s.endMs > fromMs + EPS_MS) ?? null;
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.endMs < fromMs - EPS_MS) return steps[i]!;
  return null;
}
