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
  /**
   * True once this process knows the keyframes are there (built, or found stored): a keyframe seek is then
   * bounded work — one keyframe and the chunks after it — with no build to wait for.
   */
  keyframesReady(): boolean;
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

/** Thrown into a build that stopReplayWork() stopped: expected, so it is not logged as a failure. */
export class ReplayWorkStopped extends Error {
  constructor() {
    super("replay work stopped");
  }
}

declare global {
  var __retermReplayWork: { generation: number; timers: Set<ReturnType<typeof setTimeout>>; running: Set<Promise<unknown>> } | undefined;
}

// Background work of this process (builds scheduled or running, layout saves), on globalThis like the session
// cache, so that stopReplayWork() reaches all of it.
function work(): NonNullable<typeof globalThis.__retermReplayWork> {
  globalThis.__retermReplayWork ??= { generation: 0, timers: new Set(), running: new Set() };
  return globalThis.__retermReplayWork;
}

/** Keep track of work that runs on after the request that started it, until it settles. */
export function trackReplayWork<T>(p: Promise<T>): Promise<T> {
  const running = work().running;
  running.add(p);
  void p.then(
    () => running.delete(p),
    () => running.delete(p),
  );
  return p;
}

/** A guard for a long build: throws ReplayWorkStopped once stopReplayWork() was called after the build began. */
export function stopGuard(): () => void {
  const generation = work().generation;
  return () => {
    if (work().generation !== generation) throw new ReplayWorkStopped();
  };
}

/**
 * Cancel scheduled background work, stop running builds at their next chunk and wait until everything has
 * settled: called before the database it writes to goes away (a test database's teardown, a server shutting down).
 */
export async function stopReplayWork(): Promise<void> {
  const w = work();
  w.generation++;
  for (const t of w.timers) clearTimeout(t);
  w.timers.clear();
  while (w.running.size) await Promise.allSettled([...w.running]);
}

/** Runs `build` once per source; a failure is logged and forgotten so the next request can retry. */
export class OnceTask {
  private running: Promise<void> | null = null;
  private scheduled: ReturnType<typeof setTimeout> | null = null;
  /** True once `build` has succeeded. */
  done = false;

  run(build: () => Promise<void>): Promise<void> {
    this.running ??= trackReplayWork(
      build().then(
        () => {
          this.done = true;
        },
        (e: unknown) => {
          this.running = null;
          throw e;
        },
      ),
    );
    return this.running;
  }

  /**
   * Run `build` soon, off the critical path: after BACKGROUND_DELAY_MS, so that the first frame (which needs no
   * keyframe) is served before the server spends a second of CPU on keyframes. A seek that needs them earlier
   * calls run() and starts the build at once.
   */
  background(build: () => Promise<void>, what: string): void {
    if (this.running || this.scheduled) return;
    const timers = work().timers;
    const timer = setTimeout(() => {
      timers.delete(timer);
      this.scheduled = null;
      this.run(build).catch((e: unknown) => {
        if (!(e instanceof ReplayWorkStopped)) console.error(`[replay] ${what} failed:`, e);
      });
    }, BACKGROUND_DELAY_MS);
    timer.unref?.();
    timers.add(timer);
    this.scheduled = timer;
  }
}
