// Writes a buffer's rows back as escape sequences, cell by cell with exact attributes. Used instead of
// @xterm/addon-serialize for keyframes because the addon loses what a seek must keep: it turns bold+dim into
// neither when one of them ends (SGR 22 resets both), writes every underline as a single one (no style or colour),
// turns erased cells into spaces and drops soft-wrap flags of rows it trims. Every row is written in full when the
// next row continues it, so the restored terminal wraps exactly where the original did.
import type { IBuffer, IBufferCell, IBufferLine } from "@xterm/headless";
import { sgrOf, type AttrData } from "./sgr.ts";

const HAS_EXTENDED = 0x10000000;

interface CellInternals {
  fg: number;
  bg: number;
  extended: AttrData["extended"];
}

function attrsOf(cell: IBufferCell): AttrData {
  const c = cell as unknown as CellInternals;
  return { fg: c.fg, bg: c.bg, extended: c.extended };
}

function keyOf(a: AttrData): string {
  return a.bg & HAS_EXTENDED ? `${a.fg},${a.bg},${a.extended.underlineStyle},${a.extended.underlineColor}` : `${a.fg},${a.bg}`;
}

function leftByWideWrap(line: IBufferLine, next: IBufferLine | undefined, cols: number): boolean {
  const last = line.getCell(cols - 1);
  const first = next?.getCell(0);
  return (
    !!last &&
    !!first &&
    last.getChars() === "" &&
    last.getWidth() === 1 &&
    first.getWidth() === 2 &&
    keyOf(attrsOf(last)) === keyOf(attrsOf(first))
  );
}

/** Rows [from, to) of `buf`, starting at the cursor of a fresh terminal (attributes reset). */
export function serializeRows(buf: IBuffer, from: number, to: number, cols: number): string {
  const out: string[] = [];
  const cell = buf.getNullCell();
  let current = "0,0";
  // A first row that continues a row no longer kept: a blank predecessor makes it a continuation again (and is
  // itself dropped when the scrollback is full, as the original was).
  if (buf.getLine(from)?.isWrapped) out.push(" ".repeat(cols));
  for (let y = from; y < to; y++) {
    const line = buf.getLine(y);
    if (y > from && !line?.isWrapped) {
      // A line feed that scrolls fills the new row with the current background: reset attributes first.
      if (current !== "0,0") out.push("\u001b[0m");
      current = "0,0";
      out.push("\r\n");
    }
    if (!line) continue;
    const continued = y + 1 < to && buf.getLine(y + 1)?.isWrapped === true;
    let end = cols;
    // A wide character that did not fit at the end of a row wrapped and left that row's last cell empty. Leave it
    // unwritten, so that writing the character wraps the same way: xterm's reflow on a later resize treats such a
    // row as one column shorter (a space there would shift the rest of the paragraph by one cell).
    // Only when that cell still has the character's attributes (wrapping gives it those), so that it comes out the same.
    if (continued && leftByWideWrap(line, buf.getLine(y + 1), cols)) end = cols - 1;
    // A row created by wrapping was filled with the background of the character that wrapped: write all of it.
    if (!continued && !line.isWrapped) {
      // Trailing cells that are empty and unstyled need not be written.
      while (end > 0) {
        line.getCell(end - 1, cell);
        const a = attrsOf(cell);
        if (cell.getChars() !== "" || a.fg !== 0 || a.bg !== 0) break;
        end--;
      }
    }
    for (let x = 0; x < end; x++) {
      line.getCell(x, cell);
      const width = cell.getWidth();
      if (width === 0) continue; // the second half of a wide character
      // xterm can leave a wide character without its second half (insert mode at the right margin); no byte
      // sequence recreates that, and writing it would push the rest of the row one column right: a space keeps
      // every other cell in place.
      const broken = width === 2 && (x + 1 >= cols || line.getCell(x + 1)?.getWidth() !== 0);
      const a = attrsOf(cell);
      const key = keyOf(a);
      if (key !== current) {
        out.push(sgrOf(a));
        current = key;
      }
      const chars = cell.getChars();
      // The last cell of a continued row is printed, so that the next character wraps.
      const lastOfContinued = (i: number) => continued && i === cols - 1;
      // Only cells that erasing could have made (background colour alone) can be erased back.
      if (chars === "" && !lastOfContinued(x) && a.fg === 0 && (a.bg & ~0x3ffffff) === 0) {
        // Erased cells stay empty (ECH) rather than becoming spaces: xterm treats rows of empty cells as blank
        // when it resizes, so spaces would make a later resize scroll differently.
        let n = 1;
        while (x + n < end && !lastOfContinued(x + n)) {
          line.getCell(x + n, cell);
          if (cell.getChars() !== "" || cell.getWidth() !== 1 || keyOf(attrsOf(cell)) !== key) break;
          n++;
        }
        out.push(`\u001b[${n}X`);
        if (x + n < end || (continued && x + n < cols)) out.push(`\u001b[${n}C`);
        x += n - 1;
        continue;
      }
      out.push(broken ? " " : chars || " ");
    }
  }
  if (current !== "0,0") out.push("\u001b[0m");
  return out.join("");
}
