// The keyframe builder's thread: chunks in, keyframes out, one build after another. Heavy terminal emulation runs
// here so that one recording cannot stall the server's request thread; the parent stops the thread when a build
// runs over its budget (and starts a new one for the next build).
import { parentPort } from "node:worker_threads";
import { buildKeyframes } from "../../../domain/replay/keyframes.ts";
import type { ReplayEvent } from "../../../domain/replay/recording.ts";
import { createHeadlessEmulator } from "./emulator.ts";
import type { ThreadReply, ThreadRequest } from "./keyframe-protocol.ts";

const port = parentPort!;
type Item = { seq: number; events: ReplayEvent[] } | null;
let queue: Item[] = [];
let wake: (() => void) | null = null;
let builds = Promise.resolve();

async function* incoming(items: Item[]) {
  for (;;) {
    while (!items.length) await new Promise<void>((r) => (wake = r));
    const next = items.shift()!;
    if (!next) return;
    yield next;
    port.postMessage({ type: "ack", seq: next.seq } satisfies ThreadReply);
  }
}

async function build(items: Item[], size: { cols: number; rows: number }): Promise<void> {
  try {
    for await (const k of buildKeyframes(incoming(items), createHeadlessEmulator, size))
      port.postMessage({ type: "keyframe", seq: k.seq, keyframe: k.keyframe } satisfies ThreadReply);
    port.postMessage({ type: "done" } satisfies ThreadReply);
  } catch (e) {
    port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies ThreadReply);
  }
}

port.on("message", (m: ThreadRequest) => {
  if (m.type === "start") {
    queue = [];
    const items = queue;
    builds = builds.then(() => build(items, { cols: m.cols, rows: m.rows }));
    return;
  }
  queue.push(m.type === "chunk" ? { seq: m.seq, events: m.events } : null);
  wake?.();
});
