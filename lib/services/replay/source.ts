// What the replay service needs from a session, whether it comes from a stored recording or is synthesized from
// steps: the index, events of chunk ranges, and keyframes. A source keeps the database it reads from.
import { clampEventData, type Keyframe, type ReplayChunk, type ReplayEvent, type ReplayIndex } from "../../domain/replay/recording.ts";
import type { Db } from "../../db/client.ts";
import type { KeyframeBuilder } from "./headless/keyframe-builder.ts";
import type { ReplayLayoutData } from "./layout-data.ts";

/** What a source works with, bound once when it is opened (not passed on every call). */
export interface SourceDeps {
  db: Db;
  buildKeyframes: KeyframeBuilder;
  /** Store the source's layout again (it changed after it was stored: keyframes given up as over budget). */
  saveLayout(source: ReplaySource): Promise<void>;
}

export interface ReplaySource {
  readonly index: ReplayIndex;
  /** Chunks at positions [from, to] of index.chunks, output events clamped. */
  readChunks(from: number, to: number): Promise<ReplayChunk[]>;
  /**
   * Nearest keyframe at or before chunk position `pos`, building keyframes first when needed; null when there is
   * none (position 0, or a session whose emulation ran over budget: it is then replayed from the start).
   */
  keyframeAtOrBefore(pos: number): Promise<{ seq: number; keyframe: Keyframe } | null>;
  /** Start building keyframes in the background if they are not there yet. */
  warmKeyframes(): void;
  /** What to store so that the next open skips the pass over all output (replay-layout.ts). */
  layout(): ReplayLayoutData;
}

/** Target size of a chunk: small enough that a seek replays little, big enough that a range is few requests. */
export const CHUNK_CHARS = 64 * 1024;
export const CHUNK_EVENTS = 4000;

export function clampChunkEvents(events: readonly ReplayEvent[]): ReplayEvent[] {
  return events.map((e): ReplayEvent => (e[1] === "o" && e[2].length > 0 ? [e[0], e[1], clampEventData(e[2])] : e));
}

/** How long background work waits after a replay is opened (the first frame is served meanwhile). */
export const BACKGROUND_DELAY_MS = 1500;

/** Runs `build` once per source; a failure is logged and forgotten so the next request can retry. */
export class OnceTask {
  private running: Promise<void> | null = null;
  private scheduled: ReturnType<typeof setTimeout> | null = null;

  run(build: () => Promise<void>): Promise<void> {
    this.running ??= build().catch((e: unknown) => {
      this.running = null;
      throw e;
    });
    return this.running;
  }

  /**
   * Run `build` soon, off the critical path: after BACKGROUND_DELAY_MS, so that the first frame (which needs no
   * keyframe) is served before the server spends a second of CPU on keyframes. A seek that needs them earlier
   * calls run() and starts the build at once.
   */
  background(build: () => Promise<void>, what: string): void {
    if (this.running || this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      this.run(build).catch((e: unknown) => console.error(`[replay] ${what} failed:`, e));
    }, BACKGROUND_DELAY_MS);
    this.scheduled.unref?.();
  }
}
