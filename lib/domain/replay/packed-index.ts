// The replay's timing index in the form the trajectory page sends it: step times, chunk bounds and idle gaps as
// flat arrays of differences instead of arrays of objects. A 20 MB recording's index (1,609 steps, 3,657 gaps,
// ~320 chunks) is ~130 KB of JSON as objects and a fraction of that packed; the page's HTML carries it (escaped,
// in the RSC payload) and the browser keeps that payload, so its size counts twice.
import type { IdleGap, ReplayIndex } from "./recording.ts";

export type PackedReplayIndex = Omit<ReplayIndex, "steps" | "chunks" | "gaps"> & {
  /** Per step: index − previous index, startMs − previous startMs, endMs − startMs. */
  steps: number[];
  /** Per chunk: seq − previous seq, startMs − previous startMs, endMs − startMs. */
  chunks: number[];
  /** Per gap: at − previous at, length. */
  gaps: number[];
};

export function packReplayIndex(index: ReplayIndex): PackedReplayIndex {
  const steps: number[] = [];
  let i = 0;
  let ms = 0;
  for (const s of index.steps) {
    steps.push(s.index - i, s.startMs - ms, s.endMs - s.startMs);
    i = s.index;
    ms = s.startMs;
  }
  const chunks: number[] = [];
  ms = 0;
  let seq = 0;
  for (const c of index.chunks) {
    chunks.push(c.seq - seq, c.startMs - ms, c.endMs - c.startMs);
    seq = c.seq;
    ms = c.startMs;
  }
  const gaps: number[] = [];
  ms = 0;
  for (const [at, length] of index.gaps) {
    gaps.push(at - ms, length);
    ms = at;
  }
  return { ...index, steps, chunks, gaps };
}

export function unpackReplayIndex(p: PackedReplayIndex): ReplayIndex {
  const steps: ReplayIndex["steps"] = [];
  let i = 0;
  let ms = 0;
  for (let k = 0; k + 2 < p.steps.length; k += 3) {
    i += p.steps[k]!;
    ms += p.steps[k + 1]!;
    steps.push({ index: i, startMs: ms, endMs: ms + p.steps[k + 2]! });
  }
  const chunks: ReplayIndex["chunks"] = [];
  ms = 0;
  let seq = 0;
  for (let k = 0; k + 2 < p.chunks.length; k += 3) {
    seq += p.chunks[k]!;
    ms += p.chunks[k + 1]!;
    chunks.push({ seq, startMs: ms, endMs: ms + p.chunks[k + 2]! });
  }
  const gaps: IdleGap[] = [];
  ms = 0;
  for (let k = 0; k + 1 < p.gaps.length; k += 2) {
    ms += p.gaps[k]!;
    gaps.push([ms, p.gaps[k + 1]!]);
  }
  return { ...p, steps, chunks, gaps };
}
