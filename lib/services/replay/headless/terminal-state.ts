// Keyframes: a terminal's screens (screen-serializer.ts) and the rest of its state that changes what later bytes do:
// scroll margins, saved cursor (position, attributes, charset), modes, the alternate screen with the main screen
// kept behind it, charsets and the shift level, tab stops, cursor style, the current attributes and a pending
// wrap. A terminal restored from keyframeData() and fed the same bytes
// ends up cell for cell where one that played from the start does (lib/services/replay/keyframes.test.ts).
//
// xterm.js has no public API for most of this, so it is read from the headless terminal's internals (pinned
// @xterm/headless 6.0.0; the differential test fails loudly if an upgrade renames them). The restore side is
// plain escape sequences that the sanitizer lets through, so browsers need nothing new.
import headless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import { serializeRows } from "./screen-serializer.ts";
import { CM_MASK, CM_RGB, sgrOf, type AttrData } from "./sgr.ts";

export { sgrOf, type AttrData };

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
    decPrivateModes: {
      applicationCursorKeys: boolean;
      applicationKeypad: boolean;
      origin: boolean;
      reverseWraparound: boolean;
      wraparound: boolean;
      cursorStyle?: string;
      cursorBlink?: boolean;
    };
    isCursorHidden: boolean;
  };
  optionsService: { rawOptions: { convertEol: boolean } };
  _charsetService: { charset: object | undefined; glevel: number; _charsets: (object | undefined)[] };
  _inputHandler: { _curAttrData: AttrData };
}

function core(term: Terminal): Core {
  const c = (term as unknown as { _core?: Core })._core;
  if (!c?.buffers?.normal || !c._charsetService || !c._inputHandler?._curAttrData)
    throw new Error("@xterm/headless internals changed: terminal state cannot be captured");
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
  // Attributes and G0 go back to defaults right after: what is written next (the alternate screen) must not use them.
  return `${CSI}${y + 1};${x + 1}H${sgrOf(b.savedCurAttrData)}${ESC}(${designatorOf(b.savedCharset)}\u000f${ESC}7${CSI}0m${ESC}(B`;
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
 * Keyframe data of a terminal: the main screen with the last `scrollback` lines, then the rest of its state —
 * including, when it is active, the alternate screen. Written to a fresh terminal of the same size (through the
 * sanitizer, like everything else), it restores the whole state.
 */
export function keyframeData(term: Terminal, scrollback: number): string {
  const { cols, rows } = term;
  const normal = term.buffer.normal;
  const main = serializeRows(normal, Math.max(0, normal.length - rows - scrollback), normal.length, cols);
  const altBuf = term.buffer.alternate;
  // The alternate screen has no scrollback, but keeps a line more than the screen after some resizes.
  const alt =
    term.buffer.active.type === "alternate" ? serializeRows(altBuf, Math.max(0, altBuf.length - rows), altBuf.length, cols) : null;
  return main + restoreSequence(term, alt);
}

function restoreSequence(term: Terminal, altScreen: string | null): string {
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
  } else {
    // The alternate screen keeps its margins, tab stops and saved cursor while it is not shown (its content is
    // cleared whenever it is entered): set them there and come back.
    const altState =
      marginsSequence(alt, rows) +
      tabsSequence(alt, cols) +
      (alt.savedX || alt.savedY || alt.savedCurAttrData.fg || alt.savedCurAttrData.bg || alt.savedCharset
        ? savedCursorSequence(alt, rows, cols)
        : "");
    if (altState) out += `${CSI}?47h${altState}${CSI}?47l`;
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
  const designations =
    [0, 1, 2, 3].map((g) => `${ESC}${G_INTERMEDIATES[g]}${designatorOf(cs._charsets[g])}`).join("") + (GL_SHIFTS[cs.glevel] ?? "");
  out += designations;
  // The charset in use can differ from the designated one: ESC 8 restores a saved charset without designating it.
  // Only ESC 8 recreates that, from the active screen's saved cursor — possible when that is where it came from
  // (then the cursor and attributes ESC 8 also restores are set again after it).
  if (cs.charset !== cs._charsets[cs.glevel] && active.savedCharset === cs.charset) {
    out += `${ESC}8${cursorSequence(term, active, modes.origin, cols)}${sgrOf(c._inputHandler._curAttrData)}`;
  }
  return out;
}

/** Attributes as they render: colour mode, the colour bits that mode uses, and the style flags. */
function normalized(fg: number, bg: number): string {
  const col = (v: number) => {
    const mode = v & CM_MASK;
    return `${mode >> 24}:${mode === CM_RGB ? v & 0xffffff : mode ? v & 0xff : 0}`;
  };
  return `${col(fg)}/${col(bg)}/${(fg >>> 26).toString(2)}/${((bg & ~0x10000000) >>> 26).toString(2)}`;
}

/** What the differential test compares beyond the cells: the hidden state, normalized to what later bytes see. */
export function hiddenState(term: Terminal) {
  const c = core(term);
  const { cols, rows } = term;
  const buf = (b: CoreBuffer) => ({
    margins: [b.scrollTop, b.scrollBottom],
    saved: [
      Math.min(b.savedX, cols - 1),
      Math.min(Math.max(b.savedY - b.ybase, 0), rows - 1),
      normalized(b.savedCurAttrData.fg, b.savedCurAttrData.bg),
      designatorOf(b.savedCharset),
    ],
    tabs: tabStops(b, cols),
  });
  const m = c.coreService.decPrivateModes;
  const active = c.buffers.active === c.buffers.alt ? "alternate" : "normal";
  return {
    active,
    normal: buf(c.buffers.normal),
    alt: active === "alternate" ? buf(c.buffers.alt) : null,
    cursor: [c.buffers.active.x, c.buffers.active.y],
    attrs: normalized(c._inputHandler._curAttrData.fg, c._inputHandler._curAttrData.bg),
    modes: {
      insert: c.coreService.modes.insertMode,
      origin: m.origin,
      wrap: m.wraparound,
      reverseWrap: m.reverseWraparound,
      hidden: c.coreService.isCursorHidden,
      lnm: c.optionsService.rawOptions.convertEol,
      style: m.cursorStyle ?? null,
      blink: m.cursorBlink ?? null,
    },
    charsets: [0, 1, 2, 3].map((g) => designatorOf(c._charsetService._charsets[g])),
    charset: designatorOf(c._charsetService.charset),
    glevel: c._charsetService.glevel,
  };
}
