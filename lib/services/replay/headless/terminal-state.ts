// The part of a terminal's state that the serialize addon does not write but that changes what later bytes do:
// scroll margins, saved cursor (position, attributes, charset), modes, the alternate screen with the main screen
// kept behind it, charsets and the shift level, tab stops, cursor style, the current attributes and a pending
// wrap. A keyframe is `serialize() + restoreSequence()`, so a terminal restored from it and fed the same bytes
// ends up cell for cell where one that played from the start does (lib/services/replay/keyframes.test.ts).
//
// xterm.js has no public API for most of this, so it is read from the headless terminal's internals (pinned
// @xterm/headless 6.0.0; the differential test fails loudly if an upgrade renames them). The restore side is
// plain escape sequences that the sanitizer lets through, so browsers need nothing new.
import headless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";

interface AttrData {
  fg: number;
  bg: number;
  extended: { underlineStyle: number; underlineColor: number };
}
interface CoreBuffer {
  x: number;
  y: number;
  ybase: number;
  scrollTop: number;
  scrollBottom: number;
  savedX: number;
  savedY: number;
  savedCurAttrData: AttrData;
  savedCharset: object | undefined;
  tabs: Record<number, boolean | undefined>;
}
interface Core {
  buffers: { normal: CoreBuffer; alt: CoreBuffer; active: CoreBuffer };
  coreService: {
    modes: { insertMode: boolean };
    decPrivateModes: { applicationCursorKeys: boolean; applicationKeypad: boolean; origin: boolean; reverseWraparound: boolean; wraparound: boolean; cursorStyle?: string; cursorBlink?: boolean };
    isCursorHidden: boolean;
  };
  optionsService: { rawOptions: { convertEol: boolean } };
  _charsetService: { charset: object | undefined; glevel: number; _charsets: (object | undefined)[] };
  _inputHandler: { _curAttrData: AttrData };
}

function core(term: Terminal): Core {
  const c = (term as unknown as { _core?: Core })._core;
  if (!c?.buffers?.normal || !c._charsetService || !c._inputHandler?._curAttrData) throw new Error("@xterm/headless internals changed: terminal state cannot be captured");
  return c;
}

const ESC = "\u001b";
const CSI = `${ESC}[`;
const CHARSET_DESIGNATORS = "0AB4C5RQKYE6ZH7=/";
const G_INTERMEDIATES = ["(", ")", "*", "+"];
const GL_SHIFTS = ["\u000f", "\u000e", `${ESC}n`, `${ESC}o`];

// Charsets are shared objects in xterm's CHARSETS table: find each one's designator by designating it once, on a
// throwaway terminal (the same call the parser makes for "ESC ( d").
let designators: Map<object | undefined, string> | null = null;
function designatorOf(charset: object | undefined): string {
  if (!designators) {
    designators = new Map();
    const probe = new headless.Terminal({ cols: 10, rows: 2, allowProposedApi: true });
    const c = core(probe);
    for (const d of CHARSET_DESIGNATORS) {
      (c._inputHandler as unknown as { selectCharset(collectAndFlag: string): void }).selectCharset(`(${d}`);
      if (!designators.has(c._charsetService._charsets[0])) designators.set(c._charsetService._charsets[0], d);
    }
    probe.dispose();
  }
  return designators.get(charset) ?? "B";
}

const CM_MASK = 0x3000000;
const CM_P16 = 0x1000000;
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;

function colour(v: number, base: number, bright: number, ext: number): string | null {
  const mode = v & CM_MASK;
  const c = v & 0xffffff;
  if (mode === CM_P16) return String(c < 8 ? base + c : bright + c - 8);
  if (mode === CM_P256) return `${ext};5;${c & 0xff}`;
  if (mode === CM_RGB) return `${ext};2;${(c >> 16) & 0xff};${(c >> 8) & 0xff};${c & 0xff}`;
  return null;
}

/** SGR that sets exactly these attributes (starting from a reset). */
export function sgrOf(a: AttrData): string {
  const p = ["0"];
  const { fg, bg } = a;
  if (fg & 0x8000000) p.push("1");
  if (bg & 0x8000000) p.push("2");
  if (bg & 0x4000000) p.push("3");
  if (fg & 0x10000000) {
    const style = bg & 0x10000000 ? a.extended.underlineStyle : 1;
    p.push(style > 1 ? `4:${style}` : "4");
  }
  if (fg & 0x20000000) p.push("5");
  if (fg & 0x4000000) p.push("7");
  if (fg & 0x40000000) p.push("8");
  if (fg & 0x80000000) p.push("9");
  if (bg & 0x40000000) p.push("53");
  const f = colour(fg, 30, 90, 38);
  const b = colour(bg, 40, 100, 48);
  if (f) p.push(f);
  if (b) p.push(b);
  if (bg & 0x10000000 && a.extended.underlineColor & CM_MASK) {
    const u = colour(a.extended.underlineColor, 0, 0, 58);
    if (u && u.startsWith("58")) p.push(u);
  }
  return `${CSI}${p.join(";")}m`;
}

function tabStops(b: CoreBuffer, cols: number): number[] {
  const out: number[] = [];
  for (let x = 0; x < cols; x++) if (b.tabs[x]) out.push(x);
  return out;
}

function tabsSequence(b: CoreBuffer, cols: number): string {
  const stops = tabStops(b, cols);
  const defaults = stops.length === Math.ceil((cols - 8) / 8) && stops.every((x, i) => x === (i + 1) * 8);
  if (defaults) return "";
  return `${CSI}3g${stops.map((x) => `${CSI}1;${x + 1}H${ESC}H`).join("")}`;
}

function marginsSequence(b: CoreBuffer, rows: number): string {
  return b.scrollTop === 0 && b.scrollBottom === rows - 1 ? "" : `${CSI}${b.scrollTop + 1};${b.scrollBottom + 1}r`;
}

/** Saved cursor (ESC 7) of a buffer: set position, attributes and charset as they were saved, then save. */
function savedCursorSequence(b: CoreBuffer, rows: number, cols: number): string {
  const y = Math.min(Math.max(b.savedY - b.ybase, 0), rows - 1);
  const x = Math.min(b.savedX, cols - 1);
  return `${CSI}${y + 1};${x + 1}H${sgrOf(b.savedCurAttrData)}${ESC}(${designatorOf(b.savedCharset)}\u000f${ESC}7`;
}

/** Cursor position; a pending wrap (x == cols) is recreated by rewriting the last cell, as printing it did. */
function cursorSequence(term: Terminal, b: CoreBuffer, origin: boolean, cols: number): string {
  const rowOffset = origin ? b.scrollTop : 0;
  if (b.x < cols) return `${CSI}${b.y - rowOffset + 1};${b.x + 1}H`;
  const line = term.buffer.active.getLine(b.ybase + b.y);
  let x = cols - 1;
  let cell = line?.getCell(x);
  if (cell && cell.getWidth() === 0 && x > 0) cell = line?.getCell(--x);
  if (!cell) return `${CSI}${b.y - rowOffset + 1};${cols}H`;
  const attrs: AttrData = {
    fg: (cell as unknown as { fg: number }).fg,
    bg: (cell as unknown as { bg: number }).bg,
    extended: (cell as unknown as { extended: AttrData["extended"] }).extended,
  };
  return `${CSI}${b.y - rowOffset + 1};${x + 1}H${sgrOf(attrs)}${cell.getChars() || " "}`;
}

/**
 * Escape sequences that, written after `serialize({ excludeModes: true, excludeAltBuffer: true })` of the same
 * terminal (and `altScreen`, the alternate screen's serialized content, when it is active), restore the whole
 * state. Write them through the sanitizer like everything else.
 */
export function restoreSequence(term: Terminal, altScreen: string | null): string {
  const c = core(term);
  const { cols, rows } = term;
  const { normal, alt, active } = c.buffers;
  const modes = c.coreService.decPrivateModes;
  const cs = c._charsetService;
  let out = "";
  out += marginsSequence(normal, rows) + tabsSequence(normal, cols) + savedCursorSequence(normal, rows, cols);
  if (active === alt) {
    // The main screen's own cursor (used when the alternate screen is left without restoring the saved cursor).
    out += `${CSI}${normal.y + 1};${Math.min(normal.x, cols - 1) + 1}H`;
    // 47 switches without saving the cursor: the main screen's saved cursor stays what was just set.
    out += `${CSI}?47h${CSI}H${altScreen ?? ""}${CSI}0m`;
    out += marginsSequence(alt, rows) + tabsSequence(alt, cols) + savedCursorSequence(alt, rows, cols);
  }
  if (modes.origin) out += `${CSI}?6h`;
  out += cursorSequence(term, active, modes.origin, cols);
  out += sgrOf(c._inputHandler._curAttrData);
  if (c.coreService.modes.insertMode) out += `${CSI}4h`;
  if (!modes.wraparound) out += `${CSI}?7l`;
  if (modes.reverseWraparound) out += `${CSI}?45h`;
  if (modes.applicationCursorKeys) out += `${CSI}?1h`;
  if (modes.applicationKeypad) out += `${CSI}?66h`;
  if (c.coreService.isCursorHidden) out += `${CSI}?25l`;
  if (c.optionsService.rawOptions.convertEol) out += `${CSI}20h`;
  if (modes.cursorStyle) {
    const base = modes.cursorStyle === "underline" ? 3 : modes.cursorStyle === "bar" ? 5 : 1;
    out += `${CSI}${base + (modes.cursorBlink ? 0 : 1)} q`;
  }
  for (let g = 0; g < 4; g++) {
    const d = designatorOf(cs._charsets[g]);
    if (d !== "B" || g === 0) out += `${ESC}${G_INTERMEDIATES[g]}${d}`;
  }
  out += GL_SHIFTS[cs.glevel] ?? "";
  return out;
}

/** What the differential test compares beyond the cells: the hidden state, normalized to what later bytes see. */
export function hiddenState(term: Terminal) {
  const c = core(term);
  const { cols, rows } = term;
  const buf = (b: CoreBuffer) => ({
    margins: [b.scrollTop, b.scrollBottom],
    saved: [Math.min(b.savedX, cols - 1), Math.min(Math.max(b.savedY - b.ybase, 0), rows - 1), b.savedCurAttrData.fg, b.savedCurAttrData.bg, designatorOf(b.savedCharset)],
    tabs: tabStops(b, cols),
  });
  const m = c.coreService.decPrivateModes;
  const active = c.buffers.active === c.buffers.alt ? "alternate" : "normal";
  return {
    active,
    normal: buf(c.buffers.normal),
    alt: active === "alternate" ? buf(c.buffers.alt) : null,
    cursor: [c.buffers.active.x, c.buffers.active.y],
    attrs: [c._inputHandler._curAttrData.fg, c._inputHandler._curAttrData.bg],
    modes: { insert: c.coreService.modes.insertMode, origin: m.origin, wrap: m.wraparound, reverseWrap: m.reverseWraparound, hidden: c.coreService.isCursorHidden, lnm: c.optionsService.rawOptions.convertEol, style: m.cursorStyle ?? null, blink: m.cursorBlink ?? null },
    charsets: [0, 1, 2, 3].map((g) => designatorOf(c._charsetService._charsets[g])),
    glevel: c._charsetService.glevel,
  };
}
