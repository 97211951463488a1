// Replay source for a trajectory without a recording: the session is synthesized from its steps
// (lib/domain/replay/synthesize.ts). Only the layout — step times, chunk boundaries, idle pauses — is kept in
// memory; a chunk's events are re-synthesized from the few steps it covers on request,
// so a 20 MB trajectory costs a few MB of server memory, not 20.
//
// Keyframes are computed on the server (headless xterm on a worker thread, under a budget) once and stored in
// SynthesizedKeyframe, tagged with the layout they fit (layoutKey), so a seek or deep link after a restart, or in
// another server process, is a single-row read as for a recording.
import { createHash } from "node:crypto";
import type { Db } from "../../db/client.ts";
import {
  findFirstSynthesizedKeyframe,
  findNearestSynthesizedKeyframe,
  saveSynthesizedKeyframes,
} from "../../db/repositories/replay/synthesized-keyframes.ts";
import { findStepsForReplay } from "../../db/repositories/browse/trajectory-detail.ts";
import {
  collectGaps,
  type IdleGap,
  type Keyframe,
  type ReplayChunk,
  type ReplayIndex,
  type StepTiming,
} from "../../domain/replay/recording.ts";
import { SessionClock, SYNTH_COLS, SYNTH_FORMAT, SYNTH_ROWS, synthesizeStep, type SynthStep } from "../../domain/replay/synthesize.ts";
import { IDLE_GAP_MIN_MS } from "../../domain/replay/time-map.ts";
import type { ReplayLayoutData } from "./layout-data.ts";
import { buildStoredKeyframes, parseStoredKeyframe } from "./stored-keyframes.ts";
import { CHUNK_CHARS, CHUNK_EVENTS, clampChunkEvents, OnceTask, type ReplaySource, type SourceDeps } from "./source.ts";

const STEP_BATCH = 200;
/** Bump when synthesizing output changes while the layout stays the same (the stored keyframes are then stale). */
const LAYOUT_KEY_VERSION = 1;
const KEYFRAME_BATCH = 8;
const RECENT_CHUNKS = 32;

/** Where a chunk starts: the step (position in `steps`) and the event within that step's events. */
export interface ChunkStart {
  startMs: number;
  endMs: number;
  step: number;
  event: number;
}

async function* stepsOf(db: Db, trajectoryId: string, from: number, to: number): AsyncGenerator<SynthStep> {
  for (let i = from; i < to; i += STEP_BATCH) yield* await findStepsForReplay(db, trajectoryId, i, Math.min(i + STEP_BATCH, to));
}

export class SynthesizedSource implements ReplaySource {
  private readonly building = new OnceTask();
  /** Which layout stored keyframes belong to: chunk positions mean something only within one layout. */
  private readonly layoutKey: string;
  constructor(
    private readonly deps: SourceDeps,
    readonly index: ReplayIndex,
    private readonly trajectoryId: string,
    private readonly starts: ChunkStart[],
    /** Why keyframes were given up on (emulation over budget), if they were. */
    private overBudget: string | null = null,
  ) {
    this.layoutKey = createHash("sha256")
      .update(JSON.stringify([LAYOUT_KEY_VERSION, index.cols, index.rows, starts]))
      .digest("base64url")
      .slice(0, 32);
  }

  /** One per step, in step order. */
  private get timings(): StepTiming[] {
    return this.index.steps;
  }

  layout(): ReplayLayoutData {
    return {
      kind: "synthesized",
      index: this.index,
      starts: this.starts,
      ...(this.overBudget ? { keyframesOverBudget: this.overBudget } : {}),
    };
  }

  /** Recently served chunks: seeks around the same place (and a player's prefetches) reuse them. */
  private readonly recent = new Map<number, ReplayChunk>();

  async readChunks(from: number, to: number): Promise<ReplayChunk[]> {
    const hits: ReplayChunk[] = [];
    for (let p = from; p <= to; p++) {
      const c = this.recent.get(p);
      if (!c) break;
      hits.push(c);
    }
    if (hits.length === to - from + 1) return hits;
    const out = await this.generate(from, to);
    for (const c of out) {
      this.recent.delete(c.seq);
      this.recent.set(c.seq, c);
    }
    while (this.recent.size > RECENT_CHUNKS) this.recent.delete(this.recent.keys().next().value!);
    return out;
  }

  private async generate(from: number, to: number): Promise<ReplayChunk[]> {
    const first = this.starts[from]!;
    const after = this.starts[to + 1];
    const lastStep = after ? after.step : this.timings.length - 1;
    const out: ReplayChunk[] = this.starts
      .slice(from, to + 1)
      .map((c, i) => ({ seq: from + i, startMs: c.startMs, endMs: c.endMs, events: [] }));
    let pos = from;
    for await (const step of stepsOf(this.deps.db, this.trajectoryId, this.timings[first.step]!.index, this.timings[lastStep]!.index + 1)) {
      const stepPos = step.index - this.timings[0]!.index;
      const events = synthesizeStep(step, this.timings[stepPos]!.startMs);
      for (let e = 0; e < events.length; e++) {
        while (pos + 1 < this.starts.length && !before(stepPos, e, this.starts[pos + 1]!)) pos++;
        if (pos > to) break;
        if (pos >= from && !before(stepPos, e, this.starts[pos]!)) out[pos - from]!.events.push(events[e]!);
      }
    }
    return out.map((c) => ({ ...c, events: clampChunkEvents(c.events) }));
  }

  private async *allChunks(guard: () => void): AsyncGenerator<ReplayChunk> {
    for (let pos = 0; pos < this.starts.length; pos += KEYFRAME_BATCH) {
      guard();
      yield* await this.generate(pos, Math.min(pos + KEYFRAME_BATCH, this.starts.length) - 1);
    }
  }

  private async build(): Promise<void> {
    if (this.overBudget) return;
    this.overBudget = await buildStoredKeyframes(this.deps, this.index, {
      name: `synthesized ${this.trajectoryId}`,
      first: () => findFirstSynthesizedKeyframe(this.deps.db, this.trajectoryId, this.layoutKey),
      chunks: (guard) => this.allChunks(guard),
      save: (keyframes) => saveSynthesizedKeyframes(this.deps.db, this.trajectoryId, this.layoutKey, keyframes),
    });
    if (this.overBudget) await this.deps.saveLayout(this);
  }

  warmKeyframes(): void {
    this.building.background(() => this.build(), `keyframes for synthesized ${this.trajectoryId}`);
  }

  keyframesReady(): boolean {
    return this.building.done && !this.overBudget;
  }

  async keyframeAtOrBefore(pos: number): Promise<{ seq: number; keyframe: Keyframe } | null> {
    if (pos === 0) return null;
    await this.building.run(() => this.build());
    if (this.overBudget) return null;
    const row = await findNearestSynthesizedKeyframe(this.deps.db, this.trajectoryId, this.layoutKey, pos);
    if (!row) return null;
    return { seq: row.seq, keyframe: parseStoredKeyframe(row.keyframe, `synthesized replay of ${this.trajectoryId} chunk ${row.seq}`) };
  }
}

/** True when position (step, event) comes before the chunk start `c`. */
function before(step: number, event: number, c: ChunkStart): boolean {
  return step < c.step || (step === c.step && event < c.event);
}

/** Lay out the synthesized session: one pass over the steps, keeping only times and chunk boundaries. */
export async function openSynthesizedSource(deps: SourceDeps, trajectoryId: string, stepCount: number): Promise<ReplaySource> {
  const { db } = deps;
  const clock = new SessionClock();
  const timings: StepTiming[] = [];
  const starts: ChunkStart[] = [];
  const gaps: IdleGap[] = [];
  let last: number | null = null;
  let chars = 0;
  let events = 0;
  for await (const step of stepsOf(db, trajectoryId, 0, stepCount)) {
    const placed = clock.place(step);
    const stepPos = timings.length;
    timings.push(placed.timing);
    placed.events.forEach(([t, , data], e) => {
      const current = starts.at(-1);
      if (!current || chars >= CHUNK_CHARS || events >= CHUNK_EVENTS) {
        starts.push({ startMs: t, endMs: t, step: stepPos, event: e });
        chars = 0;
        events = 0;
      } else current.endMs = t;
      chars += data.length;
      events++;
    });
    last = collectGaps(last, placed.events, IDLE_GAP_MIN_MS, gaps);
  }
  const index: ReplayIndex = {
    trajectoryId,
    source: "synthesized",
    format: SYNTH_FORMAT,
    cols: SYNTH_COLS,
    rows: SYNTH_ROWS,
    durationMs: timings.at(-1)?.endMs ?? 0,
    idleTimeLimitMs: null,
    chunks: starts.map((c, i) => ({ seq: i, startMs: c.startMs, endMs: c.endMs })),
    steps: timings,
    stepTimingSource: "synthesized",
    gaps,
  };
  return new SynthesizedSource(deps, index, trajectoryId, starts);
}
