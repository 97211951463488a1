// The poster: the terminal's opening screen as plain data (text runs with their styles), computed on the server and
// rendered as ordinary HTML text before any script runs, so the page shows its first frame at first paint; the
// live terminal replaces it once it has drawn the same moment. Text only: it is rendered as React text nodes (escaped),
// never as HTML, because recorded output is untrusted.

/** A colour: palette index (0–255) or 24-bit RGB as 0xRRGGBB + 0x1000000 (so the two never collide). */
export type PosterColour = number;

/** Style of a run, short keys because a screen holds thousands of runs. Absent = default. */
export interface PosterStyle {
  fg?: PosterColour;
  bg?: PosterColour;
  /** bold, dim, italic, underline, inverse, invisible, strikethrough, overline */
  b?: 1;
  d?: 1;
  i?: 1;
  u?: 1;
  v?: 1;
  h?: 1;
  s?: 1;
  o?: 1;
}

/** One row: [text, style] runs, left to right; a wide character's trailing cell adds no text. */
export type PosterRow = [string, PosterStyle][];

export interface ScreenPoster {
  cols: number;
  rows: number;
  /** Exactly `rows` rows, top to bottom. */
  lines: PosterRow[];
}

export const RGB_FLAG = 0x1000000;

/** The poster's text, one line per row (trailing spaces trimmed), as the terminal probe reads a screen. */
export function posterText(p: ScreenPoster): string {
  return p.lines
    .map((row) =>
      row
        .map(([t]) => t)
        .join("")
        .replace(/\s+$/, ""),
    )
    .join("\n");
}
