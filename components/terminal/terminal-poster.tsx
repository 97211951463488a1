// The opening screen as plain HTML (lib/domain/replay/poster.ts), shown where the terminal will be until the live
// xterm has drawn the same moment: text is on screen at first paint instead of after the terminal's scripts load.
// Every piece of text is a React text node (escaped): recorded output is untrusted and never becomes markup.
// Sized like the terminal's "fit width" (the font scales so the recorded width fills the box; TerminalView).
import type { CSSProperties } from "react";
import { RGB_FLAG, type PosterColour, type PosterStyle, type ScreenPoster } from "@/lib/domain/replay/poster";
import { cn } from "@/lib/utils";
import { BASE_FONT_SIZE, FIT_MAX_FONT, FIT_MIN_FONT, TERMINAL_FONT, TERMINAL_THEME } from "./terminal-theme";

const T = TERMINAL_THEME;
const ANSI = [
  T.black,
  T.red,
  T.green,
  T.yellow,
  T.blue,
  T.magenta,
  T.cyan,
  T.white,
  T.brightBlack,
  T.brightRed,
  T.brightGreen,
  T.brightYellow,
  T.brightBlue,
  T.brightMagenta,
  T.brightCyan,
  T.brightWhite,
];
const hex = (n: number) => `#${n.toString(16).padStart(6, "0")}`;

/** xterm's 256-colour palette: the theme's 16, then the 6×6×6 cube and the grey ramp. */
function paletteColour(i: number): string {
  if (i < 16) return ANSI[i]!;
  if (i < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const n = i - 16;
    return hex((v[Math.floor(n / 36)]! << 16) | (v[Math.floor(n / 6) % 6]! << 8) | v[n % 6]!);
  }
  const g = 8 + (i - 232) * 10;
  return hex((g << 16) | (g << 8) | g);
}

function colour(c: PosterColour | undefined, bold: boolean): string | undefined {
  if (c === undefined) return undefined;
  if (c >= RGB_FLAG) return hex(c - RGB_FLAG);
  // xterm draws bold text of the first 8 colours in their bright variants (drawBoldTextInBrightColors).
  return paletteColour(bold && c < 8 ? c + 8 : c);
}

function cssOf(s: PosterStyle): CSSProperties | undefined {
  if (s.fg === undefined && s.bg === undefined && !s.b && !s.d && !s.i && !s.u && !s.v && !s.h && !s.s && !s.o) return undefined;
  let fg = colour(s.fg, !!s.b);
  let bg = colour(s.bg, false);
  if (s.v) [fg, bg] = [bg ?? T.background, fg ?? T.foreground];
  const lines = [s.u && "underline", s.s && "line-through", s.o && "overline"].filter(Boolean).join(" ");
  return {
    color: s.h ? "transparent" : fg,
    backgroundColor: bg,
    fontWeight: s.b ? "bold" : undefined,
    fontStyle: s.i ? "italic" : undefined,
    opacity: s.d ? 0.5 : undefined,
    textDecoration: lines || undefined,
  };
}

/** Monospace advance ÷ font size of the usual terminal fonts (DejaVu Sans Mono, JetBrains Mono, Menlo: ≈0.6). */
const ADVANCE = 0.6;
/**
 * Row height ÷ font size of the live terminal: xterm's row is the font's measured height (≈1.12–1.17 × its size)
 * times TerminalView's lineHeight 1.2, floored to whole pixels — ≈1.34 in Chromium with DejaVu Sans Mono (14 px rows at
 * 10.5 px), so the page does not move when the terminal replaces the poster.
 */
const ROW_HEIGHT = 1.34;

/**
 * The page may cap the terminal's height (a CSS max-height on it, which TerminalView's "fit" keeps the rows within):
 * it sets this custom property, and the poster's rows keep within it too.
 */
export const TERMINAL_MAX_HEIGHT_VAR = "--terminal-max-h";

export function TerminalPoster({ id, poster, className }: { id: string; poster: ScreenPoster; className?: string }) {
  // Container-query width: the font size that makes `cols` cells fill the box, within TerminalView's bounds — and
  // no taller than the page's cap allows (less the box's 1 rem of padding), as the live terminal.
  const byWidth = `100cqw / ${(poster.cols * ADVANCE).toFixed(2)}`;
  const byHeight = `(var(${TERMINAL_MAX_HEIGHT_VAR}, 10000px) - 1rem) / ${(Math.max(poster.rows, 1) * ROW_HEIGHT).toFixed(2)}`;
  const fontSize = `clamp(${FIT_MIN_FONT}px, min(${byWidth}, ${byHeight}), ${FIT_MAX_FONT}px)`;
  return (
    <div
      data-terminal-poster={id}
      data-cols={poster.cols}
      data-rows={poster.rows}
      aria-hidden
      className={cn("overflow-hidden rounded-md bg-[#15171c] p-2 ring-1 ring-black/5 dark:ring-white/10", className)}
      style={{ containerType: "inline-size" }}
    >
      <div
        style={{
          fontFamily: TERMINAL_FONT,
          fontSize: poster.cols ? fontSize : BASE_FONT_SIZE,
          lineHeight: ROW_HEIGHT,
          whiteSpace: "pre",
          color: T.foreground,
          overflow: "hidden",
        }}
      >
        {poster.lines.map((row, y) => (
          <div key={y} data-row="">
            {row.length
              ? row.map(([text, style], x) => (
                  <span key={x} style={cssOf(style)}>
                    {text}
                  </span>
                ))
              : " "}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Test/benchmark probes of a page that opens with a poster, as inline script source (static text: no data from the
 * page goes into it), registered before any bundle runs: `window.__retermTerminals[id].screen()` reads the text that
 * is on screen — none while the poster is still hidden (inside a streamed boundary's `<div hidden>`, waiting to be
 * revealed), so a benchmark's first frame is when the reader can see it; `closest` needs no layout, which a visibility
 * check would force on every read (TerminalView replaces it with the live terminal's probe when it mounts), and
 * `window.__retermPlayers[id]` takes seeks before the player exists — each waits for it (use-replay-player.ts runs
 * the queued seeks), so a seek's time includes the wait.
 */
export function posterProbeScript(id: "main"): string {
  return (
    `(function(){var w=window,id=${JSON.stringify(id)};w.__retermTerminals=w.__retermTerminals||{};w.__retermPlayers=w.__retermPlayers||{};` +
    `var el=function(){return document.querySelector('[data-terminal-poster="'+id+'"]')};` +
    `var rows=function(){var p=el();return p&&!p.closest("[hidden]")?Array.prototype.map.call(p.querySelectorAll("[data-row]"),function(r){return r.textContent}):[]};` +
    `if(!w.__retermTerminals[id])w.__retermTerminals[id]={screen:function(){return rows().join("\\n")},text:function(){return rows().join("\\n").replace(/\\s+$/,"")},` +
    `size:function(){var p=el();return{cols:p?+p.getAttribute("data-cols"):0,rows:p?+p.getAttribute("data-rows"):0}}};` +
    `if(!w.__retermPlayers[id]){var q=[];w.__retermPlayers[id]={queued:q,state:function(){return{status:"paused",settled:false,recMs:0,error:null}},` +
    `seek:function(ms){return new Promise(function(resolve,reject){q.push({ms:ms,resolve:resolve,reject:reject})})}}}})();`
  );
}
