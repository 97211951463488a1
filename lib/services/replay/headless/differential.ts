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
      const flags = [
        c.isBold(),
        c.isItalic(),
        c.isDim(),
        c.isUnderline(),
        c.isBlink(),
        c.isInverse(),
        c.isInvisible(),
        c.isStrikethrough(),
        c.isOverline(),
      ]
        .map((b) => (b ? 1 : 0))
        .join("");
      cells.push(
        `${c.getChars() || " "}|${c.getWidth()}|${c.getFgColorMode()}:${c.getFgColor()}|${c.getBgColorMode()}:${c.getBgColor()}|${flags}`,
      );
    }
    rows.push(`${line?.isWrapped ? "w" : " "}${cells.join("¦")}`);
  }
  return rows;
}

/** Wide characters that lost their second half (see screen-serializer.ts): a state no byte stream recreates. */
export function brokenWideCells(term: Terminal): number {
  const buf = term.buffer.active;
  let n = 0;
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    for (let x = 0; line && x < term.cols; x++) if (line.getCell(x)?.getWidth() === 2 && line.getCell(x + 1)?.getWidth() !== 0) n++;
  }
  return n;
}

/**
 * States of xterm that no byte stream recreates, so a keyframe cannot either: wide characters without their second
 * half, and an alternate screen scrolled past its own end after a resize (its rows then show past the buffer).
 */
export function inconsistent(term: Terminal): boolean {
  const buf = term.buffer.active;
  return brokenWideCells(term) > 0 || buf.baseY + term.rows > buf.length;
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

export async function keyframesOf(
  chunks: readonly Chunk[],
  size: { cols: number; rows: number },
  intervalChars: number,
): Promise<Map<number, Keyframe>> {
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

/** The first field that differs; for cells, only the first differing row and the cells that differ in it. */
function firstDifference(want: Snapshot, got: Snapshot): { field: string; expected: unknown; actual: unknown } | null {
  for (const field of ["size", "buffer", "cursor"] as const) {
    if (JSON.stringify(want[field]) !== JSON.stringify(got[field])) return { field, expected: want[field], actual: got[field] };
  }
  const a = want.hidden as Record<string, unknown>;
  const b = got.hidden as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    const va = a[key];
    const vb = b[key];
    if (JSON.stringify(va) === JSON.stringify(vb)) continue;
    if (va && vb && typeof va === "object" && !Array.isArray(va)) {
      const sub = Object.keys(va).find(
        (k) => JSON.stringify((va as Record<string, unknown>)[k]) !== JSON.stringify((vb as Record<string, unknown>)[k]),
      );
      if (sub)
        return {
          field: `hidden.${key}.${sub}`,
          expected: (va as Record<string, unknown>)[sub],
          actual: (vb as Record<string, unknown>)[sub],
        };
    }
    return { field: `hidden.${key}`, expected: va, actual: vb };
  }
  for (let y = 0; y < want.cells.length; y++) {
    const a = want.cells[y]!;
    const b = got.cells[y] ?? "";
    if (a === b) continue;
    const ca = a.slice(1).split("¦");
    const cb = b.slice(1).split("¦");
    const diff = ca.flatMap((c, x) => (c !== cb[x] ? [`x=${x}: ${c} ≠ ${cb[x]}`] : [])).slice(0, 4);
    return { field: `cells row ${y}${a[0] !== b[0] ? " (wrapped flag)" : ""}`, expected: diff, actual: b.slice(0, 1) };
  }
  return null;
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
export interface SeekComparison {
  compared: number;
  /** Points skipped because the reference is in a state no byte stream recreates (inconsistent()). */
  skipped: number;
  mismatches: Mismatch[];
}

export async function compareSeeks(
  chunks: readonly Chunk[],
  size: { cols: number; rows: number },
  keyframes: Map<number, Keyframe>,
  points: readonly SeekPoint[],
): Promise<SeekComparison> {
  const sorted = [...points].sort((a, b) => a.chunk - b.chunk || a.event - b.event);
  const reference = new Player(size.cols, size.rows);
  const mismatches: Mismatch[] = [];
  let compared = 0;
  let skipped = 0;
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
      if (inconsistent(reference.term)) {
        skipped++;
        continue;
      }
      compared++;
      let k = p.chunk;
      while (k > 0 && !keyframes.has(k)) k--;
      const kf = keyframes.get(k);
      const seek = kf && k > 0 ? await Player.fromKeyframe(kf) : new Player(size.cols, size.rows);
      try {
        for (let c = k; c < p.chunk; c++) await seek.play(chunks[c]!.events);
        await seek.play(chunks[p.chunk]!.events.slice(0, p.event));
        const want = snapshot(reference.term);
        const got = snapshot(seek.term);
        const m = firstDifference(want, got);
        if (m) mismatches.push({ at: p, keyframeSeq: k, ...m });
      } finally {
        seek.dispose();
      }
    }
  } finally {
    reference.dispose();
  }
  return { compared, skipped, mismatches };
}
