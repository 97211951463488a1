// Reads a headless terminal's visible screen into a poster (lib/domain/replay/poster.ts): text runs with their
// colours and attributes, merged while the style stays the same, so a screen of 36 × 120 is a few hundred runs.
import type { IBufferCell, Terminal } from "@xterm/headless";
import { feedEvents, type TerminalFeed } from "../../../domain/replay/keyframes.ts";
import { RGB_FLAG, type PosterColour, type PosterRow, type PosterStyle, type ScreenPoster } from "../../../domain/replay/poster.ts";
import { countEventsUpTo, type ReplayRange } from "../../../domain/replay/recording.ts";
import { TerminalSanitizer } from "../../../domain/replay/sanitize.ts";
import { createHeadlessTerminal } from "./emulator.ts";

function fgOf(c: IBufferCell): PosterColour | undefined {
  if (c.isFgDefault()) return undefined;
  return c.isFgRGB() ? c.getFgColor() + RGB_FLAG : c.getFgColor();
}

function bgOf(c: IBufferCell): PosterColour | undefined {
  if (c.isBgDefault()) return undefined;
  return c.isBgRGB() ? c.getBgColor() + RGB_FLAG : c.getBgColor();
}

function styleOf(c: IBufferCell): PosterStyle {
  const s: PosterStyle = {};
  const fg = fgOf(c);
  const bg = bgOf(c);
  if (fg !== undefined) s.fg = fg;
  if (bg !== undefined) s.bg = bg;
  if (c.isBold()) s.b = 1;
  if (c.isDim()) s.d = 1;
  if (c.isItalic()) s.i = 1;
  if (c.isUnderline()) s.u = 1;
  if (c.isInverse()) s.v = 1;
  if (c.isInvisible()) s.h = 1;
  if (c.isStrikethrough()) s.s = 1;
  if (c.isOverline()) s.o = 1;
  return s;
}

function sameStyle(a: PosterStyle, b: PosterStyle): boolean {
  return (
    a.fg === b.fg &&
    a.bg === b.bg &&
    a.b === b.b &&
    a.d === b.d &&
    a.i === b.i &&
    a.u === b.u &&
    a.v === b.v &&
    a.h === b.h &&
    a.s === b.s &&
    a.o === b.o
  );
}

/** The visible screen of `term` (not the scrollback), row by row. */
export function screenPoster(term: Terminal): ScreenPoster {
  const buf = term.buffer.active;
  const lines: PosterRow[] = [];
  let cell: IBufferCell | undefined;
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    const row: PosterRow = [];
    if (line) {
      for (let x = 0; x < term.cols; x++) {
        cell = line.getCell(x, cell);
        if (!cell) break;
        const width = cell.getWidth();
        if (width === 0) continue; // the second cell of a wide character
        const text = cell.getChars() || " ";
        const style = styleOf(cell);
        const last = row[row.length - 1];
        if (last && sameStyle(last[1], style)) last[0] += text;
        else row.push([text, style]);
      }
    }
    lines.push(row);
  }
  return { cols: term.cols, rows: term.rows, lines };
}

/**
 * The screen at time `t` of a range answered for a keyframe seek (keyframe + the chunks up to t), fed exactly as the
 * browser's player feeds its terminal (keyframe through a fresh sanitizer, then the events, resizes in order).
 */
export async function posterOfRange(range: ReplayRange, size: { cols: number; rows: number }, t: number): Promise<ScreenPoster> {
  const k = range.keyframe;
  const cols = k?.cols ?? size.cols;
  const rows = k?.rows ?? size.rows;
  const term = createHeadlessTerminal(cols, rows);
  try {
    const feed: TerminalFeed = { sanitizer: new TerminalSanitizer(), cols, rows };
    feed.sanitizer.setSize(cols, rows);
    const write = (data: string) => new Promise<void>((resolve) => term.write(data, resolve));
    if (k) {
      await write(feed.sanitizer.write(k.data));
      feed.sanitizer.restore(k.sanitizer);
    }
    for (const chunk of range.chunks) {
      const events = chunk.events.slice(0, countEventsUpTo(chunk.events, t));
      await feedEvents({ write, resize: (c, r) => term.resize(c, r) }, feed, events);
      if (events.length < chunk.events.length) break;
    }
    return screenPoster(term);
  } finally {
    term.dispose();
  }
}
