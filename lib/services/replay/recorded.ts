// Replay source for a stored terminal recording. The index (step times from "step N" markers, idle pauses) is
// computed by one pass over the chunks and kept in memory; keyframes are computed once, lazily, and stored in
// RecordingChunk.keyframe so every later seek — by anyone, after restarts — is a single-row read. Keyframes are
// built on a worker thread under a budget; a recording over budget is marked in its layout and replayed without.
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import {
  findFirstKeyframe,
  findNearestKeyframe,
  listChunkInfo,
  readChunks,
  saveKeyframes,
  type RecordingMeta,
} from "../../db/repositories/replay/recordings.ts";
import type { StepHead } from "../../db/repositories/browse/trajectory-detail.ts";
import {
  collectGaps,
  parseChunkEvents,
  type IdleGap,
  type Keyframe,
  type ReplayChunk,
  type ReplayIndex,
} from "../../domain/replay/recording.ts";
import { recordingStepTimings, stepOfMarker } from "../../domain/replay/step-timing.ts";
import { IDLE_GAP_MIN_MS } from "../../domain/replay/time-map.ts";
import type { ReplayLayoutData } from "./layout-data.ts";
import { buildStoredKeyframes, parseStoredKeyframe } from "./stored-keyframes.ts";
import { clampChunkEvents, OnceTask, type ReplaySource, type SourceDeps } from "./source.ts";

const SCAN_BATCH = 32;
const headerSchema = z.object({ idle_time_limit: z.number().positive().optional() }).loose();

function idleLimitMs(header: string | null): number | null {
  if (!header) return null;
  try {
    const parsed = headerSchema.safeParse(JSON.parse(header));
    return parsed.success && parsed.data.idle_time_limit ? Math.round(parsed.data.idle_time_limit * 1000) : null;
  } catch {
    return null;
  }
}

export class RecordedSource implements ReplaySource {
  private readonly keyframes = new OnceTask();

  constructor(
    private readonly deps: SourceDeps,
    readonly index: ReplayIndex,
    private readonly recordingId: string,
    /** Database seq of each chunk position (normally equal). */
    private readonly dbSeq: number[],
    /** Why keyframes were given up on (emulation over budget), if they were. */
    private overBudget: string | null = null,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  layout(): ReplayLayoutData {
    return {
      kind: "recording",
      recordingId: this.recordingId,
      dbSeq: this.dbSeq,
      index: this.index,
      ...(this.overBudget ? { keyframesOverBudget: this.overBudget } : {}),
    };
  }

  private where(pos: number): string {
    return `recording ${this.recordingId} chunk ${this.dbSeq[pos]}`;
  }

  async readChunks(from: number, to: number): Promise<ReplayChunk[]> {
    const rows = await readChunks(this.db, this.recordingId, this.dbSeq[from]!, this.dbSeq[to]!);
    return rows.map((r, i) => ({
      seq: from + i,
      startMs: r.startMs,
      endMs: r.endMs,
      events: clampChunkEvents(parseChunkEvents(r.events, this.where(from + i))),
    }));
  }

  private async *allChunks(guard: () => void) {
    for (let pos = 0; pos < this.dbSeq.length; pos += SCAN_BATCH) {
      guard();
      yield* await this.readChunks(pos, Math.min(pos + SCAN_BATCH, this.dbSeq.length) - 1);
    }
  }

  private async build(): Promise<void> {
    if (this.overBudget) return;
    this.overBudget = await buildStoredKeyframes(this.deps, this.index, {
      name: `recording ${this.recordingId}`,
      first: () => findFirstKeyframe(this.db, this.recordingId),
      chunks: (guard) => this.allChunks(guard),
      save: (keyframes) =>
        saveKeyframes(
          this.db,
          this.recordingId,
          keyframes.map((k) => ({ seq: this.dbSeq[k.seq]!, keyframe: k.keyframe })),
        ),
    });
    if (this.overBudget) await this.deps.saveLayout(this);
  }

  warmKeyframes(): void {
    this.keyframes.background(() => this.build(), `keyframes for ${this.recordingId}`);
  }

  keyframesReady(): boolean {
    return this.keyframes.done && !this.overBudget;
  }

  async keyframeAtOrBefore(pos: number): Promise<{ seq: number; keyframe: Keyframe } | null> {
    if (pos === 0) return null;
    await this.keyframes.run(() => this.build());
    if (this.overBudget) return null;
    const row = await findNearestKeyframe(this.db, this.recordingId, this.dbSeq[pos]!);
    if (!row) return null;
    const pos0 = this.dbSeq.indexOf(row.seq);
    return { seq: pos0, keyframe: parseStoredKeyframe(row.keyframe, this.where(pos0)) };
  }
}

/** Index a recording: one pass over its chunks for "step N" markers and idle pauses. */
export async function openRecordedSource(
  deps: SourceDeps,
  trajectoryId: string,
  meta: RecordingMeta,
  heads: readonly StepHead[],
): Promise<ReplaySource> {
  const { db } = deps;
  const infos = await listChunkInfo(db, meta.id);
  const markers = new Map<number, number>();
  const gaps: IdleGap[] = [];
  let last: number | null = null;
  for (let pos = 0; pos < infos.length; pos += SCAN_BATCH) {
    const batch = infos.slice(pos, pos + SCAN_BATCH);
    const rows = await readChunks(db, meta.id, batch[0]!.seq, batch.at(-1)!.seq);
    for (const r of rows) {
      const events = parseChunkEvents(r.events, `recording ${meta.id} chunk ${r.seq}`);
      for (const [t, code, data] of events) {
        const step = code === "m" ? stepOfMarker(data) : null;
        if (step !== null && !markers.has(step)) markers.set(step, t);
      }
      last = collectGaps(last, events, IDLE_GAP_MIN_MS, gaps);
    }
  }
  const durationMs = Math.max(meta.durationMs, infos.at(-1)?.endMs ?? 0);
  const timing = recordingStepTimings(heads, markers, durationMs);
  const index: ReplayIndex = {
    trajectoryId,
    source: "recording",
    format: meta.format,
    cols: meta.width,
    rows: meta.height,
    durationMs,
    idleTimeLimitMs: idleLimitMs(meta.header),
    chunks: infos.map((c, i) => ({ seq: i, startMs: c.startMs, endMs: c.endMs })),
    steps: timing.steps,
    stepTimingSource: timing.source,
    gaps,
  };
  return new RecordedSource(
    deps,
    index,
    meta.id,
    infos.map((c) => c.seq),
  );
}
