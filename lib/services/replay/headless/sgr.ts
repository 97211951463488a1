// SGR (colour and style) sequences from xterm's packed cell attributes: what the keyframe state and the screen
// serializer both write, kept apart so neither imports the other for it.
const ESC = "\u001b";
const CSI = `${ESC}[`;

export interface AttrData {
  fg: number;
  bg: number;
  extended: { underlineStyle: number; underlineColor: number };
}

export const CM_MASK = 0x3000000;
const CM_P16 = 0x1000000;
const CM_P256 = 0x2000000;
export const CM_RGB = 0x3000000;

function colour(v: number, base: number, bright: number, ext: number): string | null {
  const mode = v & CM_MASK;
  const c = v & 0xffffff;
  // xterm leaves stale bits above the palette index: only the low byte counts for palette colours.
  if (mode === CM_P16) return String((c & 0xff) < 8 ? base + (c & 0xff) : bright + (c & 0xff) - 8);
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
