// Generated terminal sessions for the keyframe differential test (and its Chromium counterpart): what apt, pip,
// vim, less and friends do to a terminal — a status line outside a scroll region, alternate-screen editors and
// pagers, \r progress bars, wide characters, resizes, line-drawing charsets, tab stops, origin/insert/wrap modes,
// a saved cursor restored much later — mixed at random from a fixed seed, with writes split mid-sequence.
import type { ReplayEvent } from "../../../domain/replay/recording.ts";
import { mulberry32 } from "../../../domain/random.ts";

const E = "\u001b";
const C = `${E}[`;

export interface GeneratedSession {
  name: string;
  cols: number;
  rows: number;
  events: ReplayEvent[];
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

const WORDS = [
  "build",
  "error:",
  "warning",
  "ok",
  "Collecting",
  "numpy",
  "Unpacking",
  "漢字",
  "テスト",
  "😀",
  "e\u0301",
  "naïve",
  "Ⅻ",
  "│",
  "→",
  "✓",
];

function sgr(rng: Rng): string {
  return pick(rng, [
    `${C}0m`,
    `${C}1;31m`,
    `${C}32m`,
    `${C}38;5;${int(rng, 0, 255)}m`,
    `${C}48;2;${int(rng, 0, 255)};${int(rng, 0, 255)};9m`,
    `${C}4:3m`,
    `${C}58;5;${int(rng, 0, 255)}m`,
    `${C}7m`,
    `${C}2;3m`,
    `${C}9;53m`,
    `${C}22;23;24;27m`,
    `${C}95;104m`,
  ]);
}

function text(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => (rng() < 0.3 ? sgr(rng) : "") + pick(rng, WORDS)).join(" ");
}

/**
 * What common programs do (shells, compilers, apt/pip progress, editors and pagers on the alternate screen), as
 * operation numbers below; the others are rarer (insert/origin/no-wrap modes, tab stops, G1 shifts, a saved
 * charset, resets) and are only mixed in with `exotic`.
 */
const COMMON = [0, 1, 2, 3, 4, 5, 6, 12, 15, 16, 17, 19, 20, 21, 22];

/** One thing a program does to the terminal, as the bytes it writes. */
function operation(rng: Rng, size: { cols: number; rows: number }, exotic: boolean): string {
  const { cols, rows } = size;
  switch (exotic ? int(rng, 0, 21) : pick(rng, COMMON)) {
    case 0:
    case 1:
      return `${text(rng, int(rng, 1, 12))}\r\n`;
    case 2: {
      // apt/pip: status line on the last row, outside the scroll region, drawn through save/restore cursor.
      const pct = int(rng, 0, 100);
      return `${C}1;${rows - 1}r${E}7${C}${rows};1H${C}0;7mProgress: [${"#".repeat(pct >> 3)}${".".repeat(13 - (pct >> 3))}] ${pct}%${C}0m${E}8${text(rng, 3)}\r\n`;
    }
    case 3:
      return `\r${C}K[${"=".repeat(int(rng, 0, 30))}>] ${int(rng, 0, 100)}%`;
    case 4: {
      // An editor on the alternate screen: draw, move, type; sometimes leave, sometimes stay.
      let s = `${C}?1049h${C}H${C}2J`;
      for (let y = 1; y < rows; y++) s += `${C}${y};1H${C}34m~${C}0m`;
      s += `${C}${rows};1H${C}7m"file.py" ${int(rng, 1, 900)}L${C}27m${C}${int(rng, 1, rows - 1)};${int(rng, 1, cols)}H${text(rng, 3)}`;
      return rng() < 0.5 ? `${s}${C}?1049l` : s;
    }
    case 5: {
      // A pager: alternate screen, scroll region, reverse index.
      return `${C}?1049h${C}1;${rows - 1}r${C}${rows - 1};1H${text(rng, 4)}\n${text(rng, 2)}${C}H${E}M${E}M${text(rng, 2)}${C}${rows};1H:${rng() < 0.5 ? `${C}r${C}?1049l` : ""}`;
    }
    case 6:
      return `${E}(0lqqqqk\r\nx    x\r\nmqqqqj${rng() < 0.6 ? `${E}(B` : ""}\r\n`;
    case 7:
      return `${E})0${pick(rng, ["\u000e", "\u000f"])}lqk${rng() < 0.5 ? "\u000f" : ""}`;
    case 8: {
      let s = `${C}3g`;
      for (let i = 0; i < 4; i++) s += `${C}1;${int(rng, 2, cols)}H${E}H`;
      return `${s}\r\n\ta\tb\tc\r\n`;
    }
    case 9:
      return `${C}${int(rng, 1, rows >> 1)};${int(rng, (rows >> 1) + 1, rows)}r${C}?6h${C}${int(rng, 1, 4)};${int(rng, 1, 20)}H${text(rng, 2)}${rng() < 0.5 ? `${C}?6l` : ""}`;
    case 10:
      return `${C}4h${C}${int(rng, 1, rows)};3H${text(rng, 2)}${rng() < 0.5 ? `${C}4l` : ""}`;
    case 11:
      return `${C}?7l${"W".repeat(cols + 5)}${rng() < 0.5 ? `${C}?7h` : ""}\r\n`;
    case 12:
      // Exactly to the right margin: the cursor is left in the pending-wrap state.
      return `\r${"P".repeat(cols - 1)}${pick(rng, ["Q", "界"])}`;
    case 13:
      return pick(rng, [`${C}?25l`, `${C}?25h`, `${C}${int(rng, 0, 6)} q`, `${C}20h`, `${C}20l`, `${C}?45h`, `${C}?1h`]);
    case 14:
      return `${E}7${C}${int(rng, 1, rows)};${int(rng, 1, cols)}H${sgr(rng)}${E}(0`;
    case 15:
      return `${E}8${text(rng, 2)}`;
    case 22:
      return `${E}7${C}${int(rng, 1, rows)};${int(rng, 1, cols)}H${sgr(rng)}`;
    case 16:
      return pick(rng, [
        `${C}2K`,
        `${C}J`,
        `${C}1J`,
        `${C}${int(rng, 1, 9)}X`,
        `${C}${int(rng, 1, 4)}L`,
        `${C}${int(rng, 1, 4)}M`,
        `${C}${int(rng, 1, 6)}@`,
        `${C}${int(rng, 1, 6)}P`,
        `${C}${int(rng, 1, 3)}S`,
        `${C}${int(rng, 1, 3)}T`,
        `x${C}${int(rng, 1, 30)}b`,
        `${C}${int(rng, 1, 5)}Z`,
      ]);
    case 17:
      return `${C}${int(rng, 1, rows)};${int(rng, 1, cols)}H${text(rng, 2)}`;
    case 18:
      return pick(rng, [`${C}s`, `${C}u`, `${E}c`, `${C}!p`, `${E}#8`]);
    case 19:
      return `${E}[?1049h${text(rng, 3)}${E}7${C}5;5H${rng() < 0.5 ? `${E}8${C}?1049l` : ""}`;
    default:
      return `${text(rng, int(rng, 5, 30))}\n`;
  }
}

/** Split data at random points (also inside escape sequences), as a pty read would. */
function split(rng: Rng, data: string): string[] {
  const out: string[] = [];
  let rest = data;
  while (rest.length > 1 && rng() < 0.35) {
    const at = int(rng, 1, rest.length - 1);
    // Never split a surrogate pair: recordings hold whole code points.
    const cut = /[\ud800-\udbff]/.test(rest[at - 1]!) ? at + 1 : at;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  out.push(rest);
  return out.filter((s) => s.length > 0);
}

export function generateSession(seed: number, opts: { operations?: number; exotic?: boolean; resizes?: boolean } = {}): GeneratedSession {
  const { operations = 400, exotic = false, resizes = true } = opts;
  const rng = mulberry32(seed);
  const size = { cols: pick(rng, [40, 80, 100]), rows: pick(rng, [10, 24, 30]) };
  const initial = { ...size };
  const events: ReplayEvent[] = [];
  let t = 0;
  for (let i = 0; i < operations; i++) {
    if (rng() < 0.02 && resizes) {
      size.cols = int(rng, 20, 120);
      size.rows = int(rng, 5, 40);
      events.push([(t += 10), "r", `${size.cols}x${size.rows}`]);
    }
    for (const piece of split(rng, operation(rng, size, exotic))) events.push([(t += int(rng, 1, 50)), "o", piece]);
  }
  return {
    name: `${exotic ? "exotic" : "generated"} #${seed} (${initial.cols}x${initial.rows})`,
    cols: initial.cols,
    rows: initial.rows,
    events,
  };
}
