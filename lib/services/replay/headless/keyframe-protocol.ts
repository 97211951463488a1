// Messages between the keyframe builder (keyframe-builder.ts) and its thread (keyframe-thread.ts).
import type { Keyframe, ReplayEvent } from "../../../domain/replay/recording.ts";

export type ThreadRequest = { type: "chunk"; seq: number; events: ReplayEvent[] } | { type: "end" };
export type ThreadReply = { type: "ack"; seq: number } | { type: "keyframe"; seq: number; keyframe: Keyframe } | { type: "done" } | { type: "error"; message: string };
