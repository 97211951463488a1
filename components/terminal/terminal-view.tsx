"use client";
// The one component that owns an xterm instance. It never interprets output as HTML (xterm renders characters),
// and everything written goes through the sanitizer first. "Fit" scales the font so the recorded width fits the
// container instead of re-wrapping the output, as asciinema-player does: reflowing would break full-screen
// programs and make the screen differ from the keyframes.
import "@xterm/xterm/css/xterm.css";
import { useEffect, useRef } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { cn } from "@/lib/utils";
import type { TerminalHandle } from "./terminal-handle";
import { sanitizedHandle } from "./sanitized-handle";
import { BASE_FONT_SIZE, FIT_MAX_FONT, FIT_MIN_FONT, TERMINAL_FONT, TERMINAL_THEME } from "./terminal-theme";

export type FitMode = "none" | "width" | "both";

export interface TerminalViewProps {
  /** Key under which tests find this terminal in window.__retermTerminals. */
  id: string;
  cols: number;
  rows: number;
  fit: FitMode;
  onReady: (handle: TerminalHandle | null) => void;
  label: string;
  className?: string;
}

/** Rows [from, to) as text; with `unwrap`, rows the terminal soft-wrapped are joined back into one line. */
function lines(term: Terminal, from: number, to: number, unwrap: boolean): string[] {
  const buf = term.buffer.active;
  const out: string[] = [];
  for (let y = from; y < to; y++) {
    const line = buf.getLine(y);
    const continues = unwrap && buf.getLine(y + 1)?.isWrapped === true;
    const text = line?.translateToString(!continues) ?? "";
    if (unwrap && line?.isWrapped && out.length) out[out.length - 1] += text;
    else out.push(text);
  }
  return out;
}

/**
 * xterm 6's viewport re-syncs its scrollbar synchronously for every line that scrolls (Viewport subscribes `_sync` to
 * the buffer's onScroll), and each sync measures the DOM: replaying a keyframe and a chunk after a seek scrolls a few
 * thousand lines, and a Chromium profile of seeks on a 20 MB recording put most of their time there (scrollbar
 * measuring, forced layout, a hide timer per line). While writes are pending the sync is held — its own re-entrancy
 * flag makes it return early — and done once when the last write has been parsed. The scrollbar is all it updates;
 * rows render from the buffer either way. Reaches into xterm's internals (pinned @xterm/xterm 6.0): when they are not
 * there it does nothing, and writes are merely slower.
 */
function viewportSyncHold(term: Terminal): { begin(): void; end(): void } {
  const viewport = (term as unknown as { _core?: { _viewport?: { _isSyncing?: unknown; queueSync?: () => void } } })._core?._viewport;
  if (!viewport || typeof viewport._isSyncing !== "boolean" || typeof viewport.queueSync !== "function") return { begin() {}, end() {} };
  let pending = 0;
  return {
    begin() {
      if (pending++ === 0) viewport._isSyncing = true;
    },
    end() {
      if (--pending > 0) return;
      viewport._isSyncing = false;
      viewport.queueSync?.();
    },
  };
}

function openWebLink(_event: MouseEvent, uri: string): void {
  if (/^https?:\/\//i.test(uri)) window.open(uri, "_blank", "noopener,noreferrer");
}

/**
 * The rows' height the host allows: its CSS max-height less its padding (the replay caps the terminal to the
 * viewport with it), or null when it has none.
 */
function heightCap(host: HTMLElement): number | null {
  const css = getComputedStyle(host);
  const max = parseFloat(css.maxHeight);
  return Number.isFinite(max) ? max - parseFloat(css.paddingTop) - parseFloat(css.paddingBottom) : null;
}

/**
 * Font size at which `cols` × `rows` fill the container (width only, or both), within readable bounds. "width" also
 * keeps the rows within the host's max-height when it has one: the font is the smaller of the two fits.
 */
function fitFont(term: Terminal, fitAddon: FitAddon, mode: FitMode, host: HTMLElement): void {
  if (mode === "none") {
    if (term.options.fontSize !== BASE_FONT_SIZE) term.options.fontSize = BASE_FONT_SIZE;
    return;
  }
  const cap = mode === "width" ? heightCap(host) : null;
  for (let pass = 0; pass < 3; pass++) {
    const proposed = fitAddon.proposeDimensions();
    if (!proposed || !proposed.cols || !proposed.rows) return;
    const size = term.options.fontSize ?? BASE_FONT_SIZE;
    const byWidth = (size * proposed.cols) / term.cols;
    let ratio = mode === "both" ? Math.min(byWidth, (size * proposed.rows) / term.rows) : byWidth;
    // The rows' height as drawn (xterm sizes its screen to rows × cell height).
    const drawn = cap ? term.element?.querySelector<HTMLElement>(".xterm-screen")?.offsetHeight : undefined;
    if (cap && drawn) ratio = Math.min(ratio, (size * cap) / drawn);
    const next = Math.max(FIT_MIN_FONT, Math.min(FIT_MAX_FONT, Math.floor(ratio * 4) / 4));
    if (Math.abs(next - size) < 0.25) return;
    term.options.fontSize = next;
  }
}

export function TerminalView({ id, cols, rows, fit, onReady, label, className }: TerminalViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const fitRef = useRef(fit);
  const refit = useRef<() => void>(() => undefined);
  const initial = useRef({ cols, rows, onReady });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { cols: c0, rows: r0, onReady: ready } = initial.current;
    const term = new Terminal({
      cols: c0,
      rows: r0,
      scrollback: 5000,
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: "none",
      fontFamily: TERMINAL_FONT,
      fontSize: BASE_FONT_SIZE,
      // At 1.0 the DOM renderer clips underscores once "fit" shrinks the font; a little leading keeps them.
      lineHeight: 1.2,
      theme: TERMINAL_THEME,
      linkHandler: { activate: openWebLink, allowNonHttpProtocols: false },
    });
    const fitAddon = new FitAddon();
    term.loadAddon(fitAddon);
    term.open(host);
    const hold = viewportSyncHold(term);
    const handle: TerminalHandle = sanitizedHandle(term, c0, r0, {
      beforeWrite: hold.begin,
      afterWrite: hold.end,
      afterResize: () => refit.current(),
      text: () => lines(term, 0, term.buffer.active.length, true).join("\n").replace(/\n+$/, ""),
      screen: () => lines(term, term.buffer.active.baseY, term.buffer.active.baseY + term.rows, false).join("\n"),
      selection: () => term.getSelection(),
    });
    refit.current = () => fitFont(term, fitAddon, fitRef.current, host);
    const observer = new ResizeObserver(() => refit.current());
    observer.observe(host.parentElement ?? host);
    // A height cap in viewport units changes with the window's height, which the observed width may not.
    const onResize = () => refit.current();
    window.addEventListener("resize", onResize);
    refit.current();
    window.__retermTerminals ??= {};
    window.__retermTerminals[id] = { text: handle.text, screen: handle.screen, size: () => ({ cols: term.cols, rows: term.rows }) };
    ready(handle);
    return () => {
      ready(null);
      observer.disconnect();
      window.removeEventListener("resize", onResize);
      if (window.__retermTerminals) delete window.__retermTerminals[id];
      term.dispose();
    };
  }, [id]);

  useEffect(() => {
    fitRef.current = fit;
    refit.current();
  }, [fit]);

  return (
    <div
      ref={hostRef}
      role="region"
      aria-label={label}
      data-terminal-id={id}
      className={cn("overflow-hidden rounded-md bg-[#15171c] p-2 ring-1 ring-black/5 dark:ring-white/10", className)}
    />
  );
}
