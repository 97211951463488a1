// When each step happens on a real recording's clock. Best source first: "step N" markers in the recording
// (our convention, written by the generator and recommended for importers), then the steps' own offsets, then
// an even spread (clearly labelled as estimated). A step ends just before the next one starts.
import type { STEP_TIMING_SOURCES, StepTiming } from "./recording.ts";

export type StepTimingSource = (typeof STEP_TIMING_SOURCES)[number];

const STEP_MARKER = /^step (\d+)$/i;

/** Step index named by a marker label ("step 12"), or null. */
export function stepOfMarker(label: string): number | null {
  const m = STEP_MARKER.exec(label.trim());
  return m ? Number(m[1]) : null;
}

function withEnds(starts: number[], indices: number[], durationMs: number): StepTiming[] {
  return starts.map((start, i) => {
    const next = starts[i + 1];
    const end = next === undefined ? durationMs : Math.max(start, next - 1);
    return { index: indices[i]!, startMs: start, endMs: Math.max(start, end) };
  });
}

/**
 * @param steps steps in index order with their offsets (ms since the trajectory started)
 * @param markers first marker time per step index, from the recording's "m" events
 */
export function recordingStepTimings(
  steps: readonly { index: number; offsetMs: number | null }[],
  markers: ReadonlyMap<number, number>,
  durationMs: number,
): { steps: StepTiming[]; source: StepTimingSource } {
  const indices = steps.map((s) => s.index);
  const clamp = (ms: number) => Math.min(Math.max(0, Math.round(ms)), durationMs);
  const monotonic = (raw: (number | null)[]) => {
    let last = 0;
    return raw.map((v) => (last = Math.max(last, v === null ? last : clamp(v))));
  };
  if (steps.some((s) => markers.has(s.index))) {
    return { steps: withEnds(monotonic(steps.map((s) => markers.get(s.index) ?? null)), indices, durationMs), source: "markers" };
  }
  if (steps.some((s) => s.offsetMs !== null)) {
    return { steps: withEnds(monotonic(steps.map((s) => s.offsetMs)), indices, durationMs), source: "offsets" };
  }
  const n = Math.max(steps.length, 1);
  return {
    steps: withEnds(
      steps.map((_, i) => Math.round((durationMs * i) / n)),
      indices,
      durationMs,
    ),
    source: "estimated",
  };
}
