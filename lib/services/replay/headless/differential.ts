// The differential check behind the keyframe tests: at a point of a session, the screen of a terminal restored
// from the nearest keyframe and fed the events after it must equal — cell by cell, with the cursor and the hidden
// state — the screen of a terminal that played every event from the start. Shared by the unit test and the
// Chromium spec's fixture builder.
import type { Terminal } from "@xterm/headless";
import { buildKeyframes, feedEvents, KEYFRAME_VERSION, type TerminalFeed } from "../../../domain/replay/keyframes.ts";
import { clampEventData, type Keyframe, type ReplayEvent } from "../../../domain/replay/recording.ts";
import { TerminalSanitizer } from "../../../domain/replay/sanitize.ts";
import { createHeadlessEmulator, createHeadlessTerminal } from "./emulator.ts";
import { hiddenState } from "./terminal-state.ts";

type HeadlessTerminal = ReturnType<typeof createHeadlessTerminal>;

/** A headless terminal plus the feed state the player keeps (sanitizer, size). */
export class Player {
  readonly term: HeadlessTerminal;
  readonly feed: TerminalFeed;
  constructor(cols: number, rows: number) {
    this.term = createHeadlessTerminal(cols, rows);
    this.feed = { sanitizer: new TerminalSanitizer(), cols, rows };
    this.feed.sanitizer.setSize(cols, rows);
  }
  write(data: string): Promise<void> {
    return new Promise<void>((resolve) => this.term.write(data, resolve));
  }
  play(events: readonly ReplayEvent[]): Promise<number> {
    return feedEvents({ write: (d) => this.write(d), resize: (c, r) => this.term.resize(c, r) }, this.feed, events);
  }
  /** What the browser's TerminalHandle.restore does: keyframe data through a fresh sanitizer, then its state. */
  static async fromKeyframe(k: Keyframe): Promise<Player> {
    const p = new Player(k.cols, k.rows);
    p.feed.sanitizer.setSize(k.cols, k.rows);
    await p.write(p.feed.sanitizer.write(k.data));
    p.feed.sanitizer.restore(k.sanitizer);
    return p;
  }
  dispose(): void {
    this.term.dispose();
  }
}

/** The visible screen, cell by cell: text (an empty cell reads as a space), width, colours and attributes. */
export function screenCells(term: Terminal): string[] {
  const buf = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    const cells: string[] = [];
    for (let x = 0; x < term.cols; x++) {
      const c = line?.getCell(x);
      if (!c) {
        cells.push("-");
        continue;
      }
      const flags = [c.isBold(), c.isItalic(), c.isDim(), c.isUnderline(), c.isBlink(), c.isInverse(), c.isInvisible(), c.isStrikethrough(), c.isOverline()].map((b) => (b ? 1 : 0)).join("");
      cells.push(`${c.getChars() || " "}|${c.getWidth()}|${c.getFgColorMode()}:${c.getFgColor()}|${c.getBgColorMode()}:${c.getBgColor()}|${flags}`);
    }
    rows.push(`${line?.isWrapped ? "w" : " "}${cells.join(" ")}`);
  }
  return rows;
}

export interface Snapshot {
  size: string;
  buffer: string;
  cursor: [number, number];
  cells: string[];
  hidden: ReturnType<typeof hiddenState>;
}

export function snapshot(term: Terminal): Snapshot {
  return {
    size: `${term.cols}x${term.rows}`,
    buffer: term.buffer.active.type,
    cursor: [term.buffer.active.cursorX, term.buffer.active.cursorY],
    cells: screenCells(term),
    hidden: hiddenState(term),
  };
}

export interface Chunk {
  seq: number;
  events: ReplayEvent[];
}

/** Split events into chunks of about `chars` characters of data (the server's chunking, scaled down). */
export function chunkEvents(events: readonly ReplayEvent[], chars: number): Chunk[] {
  const out: Chunk[] = [];
  let size = Infinity;
  for (const e of events) {
    if (size >= chars) {
      out.push({ seq: out.length, events: [] });
      size = 0;
    }
    out.at(-1)!.events.push([e[0], e[1], clampEventData(e[2])]);
    size += e[2].length;
  }
  return out;
}

export async function keyframesOf(chunks: readonly Chunk[], size: { cols: number; rows: number }, intervalChars: number): Promise<Map<number, Keyframe>> {
  async function* feed() {
    yield* chunks;
  }
  const out = new Map<number, Keyframe>();
  for await (const k of buildKeyframes(feed(), createHeadlessEmulator, size, intervalChars)) {
    if (k.keyframe.version !== KEYFRAME_VERSION) throw new Error("keyframe without the current version");
    out.set(k.seq, k.keyframe);
  }
  return out;
}

/** A seek target: the first `event` events of chunk `chunk` have been played. */
export interface SeekPoint {
  chunk: number;
  event: number;
}

export interface Mismatch {
  at: SeekPoint;
  keyframeSeq: number;
  field: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Compare keyframe seeks with a full replay at each point (points sorted). Returns the mismatches (empty when
 * every seek shows the same screen) and how many points were compared.
 */
export async function compareSeeks(chunks: readonly Chunk[], size: { cols: number; rows: number }, keyframes: Map<number, Keyframe>, points: readonly SeekPoint[]): Promise<Mismatch[]> {
  const sorted = [...points].sort((a, b) => a.chunk - b.chunk || a.event - b.event);
  const reference = new Player(size.cols, size.rows);
  const mismatches: Mismatch[] = [];
  let at: SeekPoint = { chunk: 0, event: 0 };
  try {
    for (const p of sorted) {
      // Advance the reference to p.
      while (at.chunk < p.chunk) {
        await reference.play(chunks[at.chunk]!.events.slice(at.event));
        at = { chunk: at.chunk + 1, event: 0 };
      }
      await reference.play(chunks[p.chunk]!.events.slice(at.event, p.event));
      at = { chunk: p.chunk, event: Math.max(at.event, p.event) };
      let k = p.chunk;
      while (k > 0 && !keyframes.has(k)) k--;
      const kf = keyframes.get(k);
      const seek = kf && k > 0 ? await Player.fromKeyframe(kf) : new Player(size.cols, size.rows);
      try {
        for (let c = k; c < p.chunk; c++) await seek.play(chunks[c]!.events);
        await seek.play(chunks[p.chunk]!.events.slice(0, p.event));
        const want = snapshot(reference.term);
        const got = snapshot(seek.term);
        for (const field of ["size", "buffer", "cursor", "cells", "hidden"] as const) {
          const a = JSON.stringify(want[field]);
          const b = JSON.stringify(got[field]);
          if (a !== b) {
            mismatches.push({ at: p, keyframeSeq: k, field, expected: want[field], actual: got[field] });
            break;
          }
        }
      } finally {
        seek.dispose();
      }
    }
  } finally {
    reference.dispose();
  }
  return mismatches;
}
