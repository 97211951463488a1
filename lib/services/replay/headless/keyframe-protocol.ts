// Messages between the keyframe builder (keyframe-builder.ts) and its thread (keyframe-thread.ts). One build at a
// time: start, chunks, end; the thread answers with an ack per chunk, the keyframes, then done (or error).
import type { Keyframe, ReplayEvent } from "../../../domain/replay/recording.ts";

export type ThreadRequest =
  { type: "start"; cols: number; rows: number } | { type: "chunk"; seq: number; events: ReplayEvent[] } | { type: "end" };
export type ThreadReply =
  | { type: "ack"; seq: number }
  | { type: "keyframe"; seq: number; keyframe: Keyframe }
  | { type: "done" }
  | { type: "error"; message: string };
