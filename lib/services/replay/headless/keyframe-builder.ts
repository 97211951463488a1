// Builds a session's keyframes on a worker thread, under a time and work budget. The request thread only reads
// chunks and hands them over; a recording whose emulation runs over budget (a flood of expensive sequences that
// slipped past clamping, or simply too much output) is stopped, reported as over budget and then replayed
// without keyframes — it never holds up other requests.
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Keyframe, ReplayEvent } from "../../../domain/replay/recording.ts";
import type { ThreadReply, ThreadRequest } from "./keyframe-protocol.ts";

export interface KeyframeBuild {
  keyframes: { seq: number; keyframe: Keyframe }[];
  /** Why the build stopped early (then `keyframes` must not be used), or null when it completed. */
  overBudget: string | null;
}

export interface KeyframeBudget {
  /** Wall-clock time for the whole build. */
  timeMs: number;
  /** Output characters emulated. */
  chars: number;
}

export const DEFAULT_KEYFRAME_BUDGET: KeyframeBudget = { timeMs: 30_000, chars: 256 * 1024 * 1024 };

export type KeyframeBuilder = (
  chunks: AsyncIterable<{ seq: number; events: ReplayEvent[] }>,
  size: { cols: number; rows: number },
  budget?: KeyframeBudget,
) => Promise<KeyframeBuild>;

/** Chunks handed to the thread but not yet emulated: enough to keep it busy, little memory. */
const IN_FLIGHT = 4;
const ENTRY = "keyframe-thread-entry.mjs";

// Loaded by path, not bundled: under Next the server's own modules are compiled chunks, so the thread's entry is
// found in the source tree (the app is always started from its root), next to this file.
function entryPath(): string {
  const fromRoot = path.join(process.cwd(), "lib", "services", "replay", "headless", ENTRY);
  if (existsSync(fromRoot)) return fromRoot;
  throw new Error(`keyframe thread entry not found at ${fromRoot}`);
}

// One long-lived thread per process (starting one costs seconds: it loads the TypeScript sources), builds one at a
// time in order; a build over budget terminates it and the next build starts a fresh one.
let thread: Worker | null = null;
let lane: Promise<unknown> = Promise.resolve();

function currentThread(): Worker {
  if (!thread) {
    const w = new Worker(entryPath(), { resourceLimits: { maxOldGenerationSizeMb: 192 } });
    w.unref();
    w.on("exit", () => {
      if (thread === w) thread = null;
    });
    thread = w;
  }
  return thread;
}

/** Start the thread ahead of the first build (a replay was opened: a seek may need keyframes soon). */
export function prepareKeyframeThread(): void {
  try {
    currentThread();
  } catch (e) {
    console.error("[replay] keyframe thread could not start:", e);
  }
}

export const buildKeyframesOffThread: KeyframeBuilder = (chunks, size, budget = DEFAULT_KEYFRAME_BUDGET) => {
  const run = lane.then(() => buildOnThread(chunks, size, budget));
  lane = run.catch(() => undefined);
  return run;
};

async function buildOnThread(
  chunks: AsyncIterable<{ seq: number; events: ReplayEvent[] }>,
  size: { cols: number; rows: number },
  budget: KeyframeBudget,
): Promise<KeyframeBuild> {
  const worker = currentThread();
  const keyframes: KeyframeBuild["keyframes"] = [];
  let acked = 0;
  let sent = 0;
  let chars = 0;
  let finished = false;
  let release: (() => void) | null = null;
  let settle!: (r: { over: string | null; error?: Error }) => void;
  const outcome = new Promise<{ over: string | null; error?: Error }>((r) => (settle = r));
  const onMessage = (m: ThreadReply) => {
    if (m.type === "ack") {
      acked++;
      release?.();
    } else if (m.type === "keyframe") keyframes.push({ seq: m.seq, keyframe: m.keyframe });
    else if (m.type === "done") stop(null);
    else stop(null, new Error(m.message));
  };
  const onError = (e: Error) => stop(null, e);
  const onExit = (code: number) => stop(null, new Error(`keyframe thread exited with code ${code}`));
  const stop = (over: string | null, error?: Error) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    release?.();
    // Over budget (the thread may be stuck in one write) or failed half-way: stop it; the next build starts a new one.
    if (over || error) {
      if (thread === worker) thread = null;
      void worker.terminate();
    }
    settle({ over, error });
  };
  const timer = setTimeout(() => stop(`emulation took longer than ${budget.timeMs} ms`), budget.timeMs);
  timer.unref?.();
  worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  const send = (m: ThreadRequest) => worker.postMessage(m);
  try {
    send({ type: "start", cols: size.cols, rows: size.rows });
    for await (const c of chunks) {
      if (finished) break;
      chars += c.events.reduce((n, e) => n + (e[1] === "o" ? e[2].length : 0), 0);
      if (chars > budget.chars) {
        stop(`more than ${budget.chars} characters of output`);
        break;
      }
      while (!finished && sent - acked >= IN_FLIGHT) await new Promise<void>((r) => (release = r));
      release = null;
      if (finished) break;
      send({ type: "chunk", seq: c.seq, events: c.events });
      sent++;
    }
    if (!finished) send({ type: "end" });
  } catch (e) {
    stop(null, e instanceof Error ? e : new Error(String(e)));
  }
  const r = await outcome;
  if (r.error) throw r.error;
  return { keyframes: r.over ? [] : keyframes, overBudget: r.over };
}
