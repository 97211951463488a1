// Keyframes: the terminal state at chunk starts, so a seek restores the nearest keyframe and replays at most one
// keyframe interval of events instead of everything since the start (what asciinema-player does).
// The terminal emulator is injected (a headless xterm on the server); this module only decides where keyframes
// go and feeds the emulator exactly the bytes the browser terminal will see (same sanitizer, same clamping).
import { clampEventData, parseResize, type Keyframe, type ReplayEvent } from "./recording.ts";
import { TerminalSanitizer } from "./sanitize.ts";

export interface TerminalEmulator {
  /** Resolves once the data has been parsed. */
  write(data: string): Promise<void>;
  resize(cols: number, rows: number): void;
  /**
   * Escape sequences that rebuild the terminal in a fresh one of the same size: the screen, the last `scrollback`
   * lines and every state that changes what later bytes do (scroll margins, saved cursor, modes, alternate screen,
   * charsets, tab stops…).
   */
  serialize(scrollback: number): string;
  dispose(): void;
}
export type EmulatorFactory = (cols: number, rows: number) => TerminalEmulator;

/** Bump when what a keyframe holds changes: stored keyframes of another version are rebuilt. */
export const KEYFRAME_VERSION = 3;

/**
 * A keyframe is taken at the first chunk start after this much output since the previous one. Below the chunk size
 * (CHUNK_CHARS, 64 K characters, lib/services/replay/source.ts) so that a full chunk is always followed by one: a
 * seek then fetches and writes one keyframe (≈20 KB) and at most one chunk, instead of up to three chunks at 128 K
 * (≈290 KB per seek on the 20 MB anchor recording). Costs ≈20 KB stored per 64 KB of output.
 */
export const KEYFRAME_INTERVAL_CHARS = 48 * 1024;
/** Scrollback kept in a keyframe: after a seek you can scroll back this far (playing on extends it as usual). */
export const KEYFRAME_SCROLLBACK = 300;

export interface TerminalFeed {
  sanitizer: TerminalSanitizer;
  cols: number;
  rows: number;
}

/**
 * Write events to a terminal the way the player does: output through the sanitizer (clamped), resizes applied,
 * input/markers/exit ignored. Returns the number of output characters written.
 */
export async function feedEvents(
  term: Pick<TerminalEmulator, "write" | "resize">,
  feed: TerminalFeed,
  events: readonly ReplayEvent[],
): Promise<number> {
  let buf = "";
  let chars = 0;
  for (const [, code, data] of events) {
    if (code === "o") {
      const clean = feed.sanitizer.write(clampEventData(data));
      buf += clean;
      chars += clean.length;
    } else if (code === "r") {
      const size = parseResize(data);
      if (!size) continue;
      if (buf) await term.write(buf);
      buf = "";
      feed.cols = size.cols;
      feed.rows = size.rows;
      feed.sanitizer.setSize(size.cols, size.rows);
      term.resize(size.cols, size.rows);
    }
  }
  if (buf) await term.write(buf);
  return chars;
}

/**
 * Play chunks in order through an emulator and yield a keyframe at chunk 0 (the empty terminal) and then every
 * KEYFRAME_INTERVAL_CHARS of output — until the first resize. After a resize, xterm's screen depends on how it
 * reflowed the lines it had then (rows pushed into or pulled from the scrollback, paragraphs rewrapped), history
 * that a keyframe does not carry: with keyframes after resizes, the differential test found 36 of 480 seeks
 * (7.5 %) wrong, also seeks that crossed no resize. A seek past a resize replays from the last keyframe before
 * the first one instead (exact: lib/services/replay/headless/differential.test.ts), which costs nothing for the
 * many recordings that never resize and only the replayed output for those that do.
 */
export async function* buildKeyframes(
  chunks: AsyncIterable<{ seq: number; events: readonly ReplayEvent[] }>,
  createEmulator: EmulatorFactory,
  size: { cols: number; rows: number },
  intervalChars = KEYFRAME_INTERVAL_CHARS,
): AsyncGenerator<{ seq: number; keyframe: Keyframe }> {
  const term = createEmulator(size.cols, size.rows);
  const feed: TerminalFeed = { sanitizer: new TerminalSanitizer(), cols: size.cols, rows: size.rows };
  feed.sanitizer.setSize(size.cols, size.rows);
  let since = 0;
  let resized = false;
  try {
    for await (const chunk of chunks) {
      if (chunk.seq === 0 || (since >= intervalChars && !resized)) {
        yield {
          seq: chunk.seq,
          keyframe: {
            cols: feed.cols,
            rows: feed.rows,
            data: term.serialize(KEYFRAME_SCROLLBACK),
            sanitizer: feed.sanitizer.snapshot(),
            version: KEYFRAME_VERSION,
          },
        };
        since = 0;
      }
      since += await feedEvents(term, feed, chunk.events);
      resized ||= chunk.events.some((e) => e[1] === "r" && parseResize(e[2]) !== null);
    }
  } finally {
    term.dispose();
  }
}
