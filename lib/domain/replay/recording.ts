// The replay's recording model: asciicast-style events with times in milliseconds, stored and served in
// time-ordered chunks, plus keyframes (serialized terminal state at a chunk start) for fast seeking.
// Real recordings and sessions synthesized from steps share this model, so the player has one code path.
import { z } from "zod";
import { sanitizerStateSchema } from "./sanitize.ts";

export const EVENT_CODES = ["o", "i", "m", "r", "x"] as const;
export type EventCode = (typeof EVENT_CODES)[number];

/** [ms since start, code, data]: o output, i input, m marker, r resize ("COLSxROWS"), x exit status. */
export type ReplayEvent = [timeMs: number, code: EventCode, data: string];

const CODES: ReadonlySet<string> = new Set(EVENT_CODES);

/** Type guard for one event. Hand-written rather than a zod tuple: recordings hold hundreds of thousands of them. */
export function isReplayEvent(v: unknown): v is ReplayEvent {
  return (
    Array.isArray(v) &&
    v.length === 3 &&
    Number.isInteger(v[0]) &&
    v[0] >= 0 &&
    typeof v[1] === "string" &&
    CODES.has(v[1]) &&
    typeof v[2] === "string"
  );
}

export const chunkEventsSchema = z.custom<ReplayEvent[]>(
  (v) => Array.isArray(v) && v.every(isReplayEvent),
  "expected an array of [ms, code, data] events",
);

/** Parse a stored chunk's events (JSON text); the error names the first bad event. */
export function parseChunkEvents(json: string, where: string): ReplayEvent[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new Error(`${where}: events are not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(value)) throw new Error(`${where}: events must be an array`);
  const out: ReplayEvent[] = [];
  for (const [i, e] of value.entries()) {
    if (!isReplayEvent(e)) throw new Error(`${where}: events[${i}] is not a [ms, code, data] event`);
    out.push(e);
  }
  return out;
}

/**
 * A single output event larger than this is cut (head and tail kept) before it reaches any terminal: one
 * multi-megabyte write would stall the terminal for seconds and no one reads it in a replay anyway.
 */
export const MAX_EVENT_CHARS = 1024 * 1024;
const EVENT_TAIL_CHARS = 16 * 1024;

export function clampEventData(data: string): string {
  if (data.length <= MAX_EVENT_CHARS) return data;
  // Head + notice + tail stays within the limit, so clamping twice changes nothing.
  const head = MAX_EVENT_CHARS - EVENT_TAIL_CHARS - 256;
  const omitted = data.length - head - EVENT_TAIL_CHARS;
  return `${data.slice(0, head)}\r\n\u001b[0m\u001b[7m … ${omitted.toLocaleString("en-US")} characters of output omitted … \u001b[27m\r\n${data.slice(-EVENT_TAIL_CHARS)}`;
}

/** "120x32" → {cols, rows}; null when malformed or out of range. */
export function parseResize(data: string): { cols: number; rows: number } | null {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(data.trim());
  if (!m) return null;
  const cols = Number(m[1]);
  const rows = Number(m[2]);
  return cols >= 1 && cols <= 1000 && rows >= 1 && rows <= 1000 ? { cols, rows } : null;
}

export const keyframeSchema = z.object({
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(1000),
  /** Output of the serialize addon: escape sequences that rebuild the screen and scrollback. */
  data: z.string(),
  /** Sanitizer state at this point, so a restored terminal filters the following bytes exactly as in a full replay. */
  sanitizer: sanitizerStateSchema,
  /**
   * KEYFRAME_VERSION of the builder (keyframes.ts). Absent on keyframes stored before they carried the whole
   * terminal state (scroll margins, saved cursor, modes…): those are rebuilt.
   */
  version: z.number().int().optional(),
});
export type Keyframe = z.infer<typeof keyframeSchema>;

export const chunkInfoSchema = z.object({
  seq: z.number().int().nonnegative(),
  startMs: z.number().int().nonnegative(),
  endMs: z.number().int().nonnegative(),
});
export type ChunkInfo = z.infer<typeof chunkInfoSchema>;

export const stepTimingSchema = z.object({
  index: z.number().int().nonnegative(),
  startMs: z.number().int().nonnegative(),
  endMs: z.number().int().nonnegative(),
});
/** When a step starts (its command is typed) and ends (its output is complete) on the recording's clock. */
export type StepTiming = z.infer<typeof stepTimingSchema>;

export const idleGapSchema = z.tuple([z.number().int().nonnegative(), z.number().int().positive()]);
/** [time of the last event before the pause, length of the pause] — used for the idle-time cap. */
export type IdleGap = z.infer<typeof idleGapSchema>;

export const STEP_TIMING_SOURCES = ["synthesized", "markers", "offsets", "estimated"] as const;

export const replayIndexSchema = z.object({
  trajectoryId: z.string(),
  /** "recording": a real terminal recording; "synthesized": a session rebuilt from the steps. */
  source: z.enum(["recording", "synthesized"]),
  format: z.string(),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(1000),
  durationMs: z.number().int().nonnegative(),
  /** Idle-time cap suggested by the recording header (ms), if any. */
  idleTimeLimitMs: z.number().int().positive().nullable(),
  chunks: z.array(chunkInfoSchema),
  steps: z.array(stepTimingSchema),
  stepTimingSource: z.enum(STEP_TIMING_SOURCES),
  gaps: z.array(idleGapSchema),
});
export type ReplayIndex = z.infer<typeof replayIndexSchema>;

export const stepSummarySchema = z.object({
  index: z.number().int().nonnegative(),
  source: z.string(),
  /** First line of the command (shortened); null for turns without one. */
  command: z.string().nullable(),
  /** True when the command has more lines or was shortened. */
  more: z.boolean(),
  exitCode: z.number().int().nullable(),
  isError: z.boolean(),
  isCopiedContext: z.boolean(),
});
export type StepSummary = z.infer<typeof stepSummarySchema>;

/** Everything the player needs before the first frame: the index plus one line per step for the step list. */
export const replayManifestSchema = z.object({ index: replayIndexSchema, steps: z.array(stepSummarySchema) });
export type ReplayManifest = z.infer<typeof replayManifestSchema>;

export const replayChunkSchema = chunkInfoSchema.extend({ events: chunkEventsSchema });
export type ReplayChunk = z.infer<typeof replayChunkSchema>;

export const replayRangeSchema = z.object({
  /** Terminal state at the start of the first returned chunk; null when that chunk is the first (empty terminal). */
  keyframe: keyframeSchema.extend({ seq: z.number().int().nonnegative() }).nullable(),
  chunks: z.array(replayChunkSchema),
});
export type ReplayRange = z.infer<typeof replayRangeSchema>;

/** Index of the chunk holding time `ms`: the last chunk starting at or before it (0 for an empty list). */
export function chunkIndexAt(chunks: readonly Pick<ChunkInfo, "startMs">[], ms: number): number {
  let lo = 0;
  let hi = chunks.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid]!.startMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Number of events with time ≤ ms (events are time-ordered). */
export function countEventsUpTo(events: readonly ReplayEvent[], ms: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]![0] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pauses longer than `minMs` between consecutive events, continuing from the previous event time `prevMs`. */
export function collectGaps(prevMs: number | null, events: readonly ReplayEvent[], minMs: number, into: IdleGap[]): number | null {
  let last = prevMs;
  for (const [t] of events) {
    if (last !== null && t - last > minMs) into.push([last, t - last]);
    last = t;
  }
  return last;
}
