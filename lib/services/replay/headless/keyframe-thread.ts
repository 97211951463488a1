// The keyframe builder's thread: chunks in, keyframes out. Heavy terminal emulation runs here so that one
// recording cannot stall the server's request thread; the parent stops the thread when it runs over its budget.
import { parentPort, workerData } from "node:worker_threads";
import { buildKeyframes } from "../../../domain/replay/keyframes.ts";
import type { ReplayEvent } from "../../../domain/replay/recording.ts";
import { createHeadlessEmulator } from "./emulator.ts";
import type { ThreadRequest, ThreadReply } from "./keyframe-protocol.ts";

const port = parentPort!;
const { cols, rows } = workerData as { cols: number; rows: number };
const queue: ({ seq: number; events: ReplayEvent[] } | null)[] = [];
let wake: (() => void) | null = null;

port.on("message", (m: ThreadRequest) => {
  queue.push(m.type === "chunk" ? { seq: m.seq, events: m.events } : null);
  wake?.();
});

async function* incoming() {
  for (;;) {
    while (!queue.length) await new Promise<void>((r) => (wake = r));
    const next = queue.shift()!;
    if (!next) return;
    yield next;
    port.postMessage({ type: "ack", seq: next.seq } satisfies ThreadReply);
  }
}

try {
  for await (const k of buildKeyframes(incoming(), createHeadlessEmulator, { cols, rows })) port.postMessage({ type: "keyframe", seq: k.seq, keyframe: k.keyframe } satisfies ThreadReply);
  port.postMessage({ type: "done" } satisfies ThreadReply);
} catch (e) {
  port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies ThreadReply);
}
