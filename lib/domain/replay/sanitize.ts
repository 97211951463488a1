// Untrusted terminal output → bytes that are safe to hand to xterm. Everything that could reach outside the
// terminal (clipboard, window title, links to non-web URLs, answers to terminal queries, paste mode) is removed;
// rendering sequences (colours, cursor movement, erasing, alternate screen) pass through unchanged.
//
// The sanitizer is a small VT500-style state machine with the same string-termination rules as xterm.js, so a
// sequence xterm would treat as one unit is judged as one unit (no smuggling across a split). It is stateful
// across writes — a sequence may be split between two events — and its state is saved in keyframes so that a
// terminal restored from a keyframe continues exactly like one that played from the start.
import { z } from "zod";

/** Longest run of printable text between line breaks or cursor jumps that is shown; the rest is dropped. */
export const MAX_LINE_CHARS = 16 * 1024;
/** OSC payloads longer than this are never legitimate for what we keep (hyperlinks), so they are discarded. */
const MAX_OSC_CHARS = 4096;
const MAX_CSI_CHARS = 64;
/** Screen size assumed until the player says otherwise (the largest a recording may declare). */
const MAX_SCREEN = 1000;
// Count parameters are clamped to the screen, as real terminals do, before xterm sees them: xterm loops once per
// count (ESC[2147483647S would scroll for hours). Horizontal counts to the width, vertical ones to the height.
const COLUMN_COUNTS = new Set("@PXCDaGI`Z");
const ROW_COUNTS = new Set("ABEFedLMST");

export const LINE_TRUNCATED_NOTICE = `\u001b[0m\u001b[7m … line truncated (longer than ${MAX_LINE_CHARS / 1024} KiB) \u001b[27m`;

export const sanitizerStateSchema = z.object({
  pending: z.string().max(MAX_OSC_CHARS + 16),
  dropping: z.enum(["osc", "string"]).nullable(),
  lineLength: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type SanitizerState = z.infer<typeof sanitizerStateSchema>;

export const INITIAL_SANITIZER_STATE: SanitizerState = { pending: "", dropping: null, lineLength: 0, truncated: false };

const ESC = "\u001b";
// Controls and C1 code points: everything the fast path must look at. Plain text runs between them are copied.
const SPECIAL = /[\u0000-\u001f\u007f-\u009f]/g;
const KEPT_CONTROLS = new Set([0x08, 0x09, 0x0e, 0x0f]); // BS, TAB, SO, SI
const CSI_FINALS_PLAIN = new Set("@ABCDEFGHIJKLMPSTXZ`abdefghlmrsu");
const CURSOR_JUMPS = new Set("HfdG`EF");
// DEC private modes that make the terminal report mouse, focus or paste events, i.e. talk back.
const BLOCKED_PRIVATE_MODES = new Set([9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004]);
const HTTP_URL = /^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f]+$/i;

type Step =
  | { kind: "emit"; text: string; end: number; jump?: boolean }
  | { kind: "drop"; end: number }
  | { kind: "incomplete" }
  | { kind: "enter-drop"; mode: "osc" | "string"; end: number };

/** Filters a DEC private mode set/reset (CSI ? … h/l), keeping only modes that cannot talk back. */
function filterPrivateModes(params: string, final: string): string | null {
  const kept = params
    .slice(1)
    .split(";")
    .filter((p) => p !== "" && !BLOCKED_PRIVATE_MODES.has(Number(p)));
  return kept.length ? `${ESC}[?${kept.join(";")}${final}` : null;
}

export interface ScreenSize {
  cols: number;
  rows: number;
}

/**
 * Numeric parameters each clamped to its limit (limits[i], or the last one) — sub-parameters too: xterm reads a
 * count from "2147483647:1" as well as from "2147483647".
 */
function clampParams(params: string, limits: readonly number[]): string {
  return params
    .split(";")
    .map((p, i) => {
      const limit = limits[Math.min(i, limits.length - 1)]!;
      return p
        .split(":")
        .map((n) => (/^\d+$/.test(n) && Number(n) > limit ? String(limit) : n))
        .join(":");
    })
    .join(";");
}

/** Decide what happens to a complete CSI sequence (params, intermediates, final byte). */
function judgeCsi(params: string, inter: string, final: string, size: ScreenSize): string | null {
  const prefix = params[0];
  if (prefix === "?") {
    if (inter === "" && (final === "h" || final === "l")) return filterPrivateModes(params, final);
    if (inter === "" && (final === "J" || final === "K")) return `${ESC}[${params}${final}`;
    return null; // DSR/DECRQM/XTSMGRAPHICS/kitty-keyboard queries and friends
  }
  if (prefix === ">" || prefix === "=" || prefix === "<") return null; // secondary/tertiary DA, XTVERSION, XTMODKEYS
  if (inter === " " && final === "q") return `${ESC}[${params} q`; // cursor style
  if (inter === "!" && final === "p") return `${ESC}[!p`; // soft reset
  if (inter !== "" || !CSI_FINALS_PLAIN.has(final)) return null; // DSR (n), DA (c), window ops/titles (t), DECREQTPARM (x), media copy (i), …
  if (final === "b") return `${ESC}[${clampParams(params, [size.cols * size.rows])}b`; // REP: at most a screenful
  if (COLUMN_COUNTS.has(final)) return `${ESC}[${clampParams(params, [size.cols])}${final}`;
  if (ROW_COUNTS.has(final)) return `${ESC}[${clampParams(params, [size.rows])}${final}`;
  if (final === "H" || final === "f") return `${ESC}[${clampParams(params, [size.rows, size.cols])}${final}`;
  if (final === "r") return `${ESC}[${clampParams(params, [size.rows])}r`;
  return `${ESC}[${params}${final}`;
}

/** OSC: only hyperlinks to http(s) URLs survive (and the empty URL that closes a link). */
function judgeOsc(body: string): string | null {
  if (!body.startsWith("8;") || body.length > MAX_OSC_CHARS) return null;
  const rest = body.slice(2);
  const sep = rest.indexOf(";");
  if (sep < 0) return null;
  const params = rest.slice(0, sep).replace(/[^\w=:.-]/g, "");
  const uri = rest.slice(sep + 1);
  if (uri !== "" && !HTTP_URL.test(uri)) return null;
  return `${ESC}]8;${params};${uri}${ESC}\\`;
}

/** Where a string sequence (OSC/DCS/SOS/PM/APC) ends, xterm-style: BEL (OSC only), ESC \, C1 ST, CAN, SUB, or any ESC. */
function stringEnd(s: string, from: number, mode: "osc" | "string"): { bodyEnd: number; end: number } | null {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x07 && mode === "osc") return { bodyEnd: i, end: i + 1 };
    if (c === 0x9c || c === 0x18 || c === 0x1a) return { bodyEnd: i, end: i + 1 };
    if (c === 0x1b) {
      if (i + 1 >= s.length) return null; // ESC at the very end: could be the start of ST
      return { bodyEnd: i, end: s[i + 1] === "\\" ? i + 2 : i };
    }
  }
  return null;
}

function parseCsi(s: string, start: number, size: ScreenSize): Step {
  let i = start;
  let params = "";
  let inter = "";
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x3f && inter === "") params += s[i];
    else if (c >= 0x20 && c <= 0x2f) inter += s[i];
    else if (c >= 0x40 && c <= 0x7e) {
      const kept = judgeCsi(params, inter, s[i]!, size);
      return kept === null
        ? { kind: "drop", end: i + 1 }
        : { kind: "emit", text: kept, end: i + 1, jump: inter === "" && CURSOR_JUMPS.has(s[i]!) };
    } else return { kind: "drop", end: i }; // a control or stray byte aborts the sequence; reprocess it
    if (i - start > MAX_CSI_CHARS) return { kind: "drop", end: i + 1 };
    i++;
  }
  return { kind: "incomplete" };
}

function parseOsc(s: string, start: number): Step {
  const end = stringEnd(s, start, "osc");
  if (!end) return s.length - start > MAX_OSC_CHARS ? { kind: "enter-drop", mode: "osc", end: s.length } : { kind: "incomplete" };
  const kept = judgeOsc(s.slice(start, end.bodyEnd));
  return kept === null ? { kind: "drop", end: end.end } : { kind: "emit", text: kept, end: end.end };
}

/** Parse the escape sequence introduced at `at` (ESC or a C1 introducer). */
function parseEscape(s: string, at: number, size: ScreenSize): Step {
  const c = s.charCodeAt(at);
  if (c === 0x9b) return parseCsi(s, at + 1, size);
  if (c === 0x9d) return parseOsc(s, at + 1);
  if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) return { kind: "enter-drop", mode: "string", end: at + 1 };
  if (c !== 0x1b) return { kind: "drop", end: at + 1 }; // other C1 controls (incl. a lone ST)
  if (at + 1 >= s.length) return { kind: "incomplete" };
  const next = s[at + 1]!;
  if (next === "[") return parseCsi(s, at + 2, size);
  if (next === "]") return parseOsc(s, at + 2);
  if (next === "P" || next === "X" || next === "^" || next === "_") return { kind: "enter-drop", mode: "string", end: at + 2 };
  const n = next.charCodeAt(0);
  if (n >= 0x20 && n <= 0x2f) {
    // ESC intermediate(s) final: charset designation, DECALN, …
    let i = at + 2;
    while (i < s.length && s.charCodeAt(i) >= 0x20 && s.charCodeAt(i) <= 0x2f) i++;
    if (i - at > 8) return { kind: "drop", end: i };
    if (i >= s.length) return { kind: "incomplete" };
    const f = s.charCodeAt(i);
    return f >= 0x30 && f <= 0x7e ? { kind: "emit", text: s.slice(at, i + 1), end: i + 1 } : { kind: "drop", end: i };
  }
  if (next === "Z" || next === "\\") return { kind: "drop", end: at + 2 }; // DECID (identify terminal) / stray ST
  if (n >= 0x30 && n <= 0x7e)
    return { kind: "emit", text: s.slice(at, at + 2), end: at + 2, jump: next === "8" || next === "M" || next === "E" || next === "c" };
  return { kind: "drop", end: at + 1 };
}

/**
 * Stream sanitizer for untrusted terminal output. `write` returns what may be passed to the terminal; incomplete
 * trailing sequences are held until the next write.
 */
export class TerminalSanitizer {
  private state: SanitizerState;
  private size: ScreenSize = { cols: MAX_SCREEN, rows: MAX_SCREEN };

  constructor(state: SanitizerState = INITIAL_SANITIZER_STATE) {
    this.state = { ...state };
  }

  snapshot(): SanitizerState {
    return { ...this.state };
  }

  restore(state: SanitizerState): void {
    this.state = { ...state };
  }

  reset(): void {
    this.state = { ...INITIAL_SANITIZER_STATE };
  }

  /** The terminal's size, to which count parameters are clamped. Call on every resize. */
  setSize(cols: number, rows: number): void {
    this.size = { cols: Math.max(1, Math.min(cols, MAX_SCREEN)), rows: Math.max(1, Math.min(rows, MAX_SCREEN)) };
  }

  write(input: string): string {
    const st = this.state;
    const s = st.pending ? st.pending + input : input;
    st.pending = "";
    const out: string[] = [];
    let i = 0;
    if (st.dropping) {
      const end = stringEnd(s, 0, st.dropping);
      if (!end) {
        if (s.endsWith(ESC)) st.pending = ESC;
        return "";
      }
      st.dropping = null;
      i = end.end;
    }
    while (i < s.length) {
      SPECIAL.lastIndex = i;
      const m = SPECIAL.exec(s);
      const j = m ? m.index : s.length;
      if (j > i) this.text(s, i, j, out);
      if (!m) break;
      const c = s.charCodeAt(j);
      if (c === 0x0a || c === 0x0d) {
        out.push(s[j]!);
        st.lineLength = 0;
        st.truncated = false;
        i = j + 1;
        continue;
      }
      if (c < 0x20 && c !== 0x1b) {
        if (KEPT_CONTROLS.has(c)) out.push(s[j]!);
        i = j + 1;
        continue;
      }
      const step = parseEscape(s, j, this.size);
      if (step.kind === "incomplete") {
        st.pending = s.slice(j);
        break;
      }
      if (step.kind === "enter-drop") {
        const end = stringEnd(s, step.end, step.mode);
        if (!end) {
          st.dropping = step.mode;
          if (s.endsWith(ESC)) st.pending = ESC;
          break;
        }
        i = end.end;
        continue;
      }
      if (step.kind === "emit") {
        out.push(step.text);
        if (step.jump) {
          st.lineLength = 0;
          st.truncated = false;
        }
      }
      i = step.end;
    }
    return out.join("");
  }

  private text(s: string, from: number, to: number, out: string[]): void {
    const st = this.state;
    const room = MAX_LINE_CHARS - st.lineLength;
    const len = to - from;
    if (len <= room) {
      out.push(from === 0 && to === s.length ? s : s.slice(from, to));
      st.lineLength += len;
      return;
    }
    if (room > 0) out.push(s.slice(from, from + room));
    if (!st.truncated) out.push(LINE_TRUNCATED_NOTICE);
    st.truncated = true;
    st.lineLength = MAX_LINE_CHARS;
  }
}

/** One-shot sanitize of a complete piece of output (tests, previews). */
export function sanitizeTerminalOutput(input: string): string {
  return new TerminalSanitizer().write(input);
}
