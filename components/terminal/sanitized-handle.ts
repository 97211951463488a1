// The replay's TerminalHandle over any xterm-shaped terminal (the live @xterm/xterm view, or @xterm/headless in the
// driver's tests): every write goes through the sanitizer, and a keyframe restores the sanitizer's state with the
// screen. One implementation, so the tests exercise the same steps, in the same order, as the page.
import { TerminalSanitizer } from "@/lib/domain/replay/sanitize";
import type { Keyframe } from "@/lib/domain/replay/recording";
import type { TerminalHandle } from "./terminal-handle";

/** What the handle needs of a terminal: xterm's and xterm-headless's Terminal both have it. */
export interface XtermLike {
  readonly cols: number;
  readonly rows: number;
  write(data: string, callback: () => void): void;
  resize(cols: number, rows: number): void;
  reset(): void;
}

export interface HandleHooks {
  /** Around every write (the live view holds xterm's scrollbar sync while writes are pending). */
  beforeWrite?(): void;
  afterWrite?(): void;
  /** After a reset or resize (the live view refits its font). */
  afterResize?(): void;
  text(): string;
  screen(): string;
  selection(): string;
}

export function sanitizedHandle(term: XtermLike, cols: number, rows: number, hooks: HandleHooks): TerminalHandle {
  const sanitizer = new TerminalSanitizer();
  // Count parameters are clamped to the screen size before xterm sees them (lib/domain/replay/sanitize.ts).
  sanitizer.setSize(cols, rows);
  const write = (data: string) =>
    new Promise<void>((resolve) => {
      hooks.beforeWrite?.();
      term.write(sanitizer.write(data), () => {
        hooks.afterWrite?.();
        resolve();
      });
    });
  return {
    reset(c, r) {
      term.reset();
      sanitizer.reset();
      sanitizer.setSize(c, r);
      if (term.cols !== c || term.rows !== r) term.resize(c, r);
      hooks.afterResize?.();
    },
    async restore(kf: Keyframe) {
      if (term.cols !== kf.cols || term.rows !== kf.rows) term.resize(kf.cols, kf.rows);
      sanitizer.reset();
      sanitizer.setSize(kf.cols, kf.rows);
      // The sanitizer state is restored as soon as the keyframe is queued (it is sanitized synchronously), so the
      // caller may queue the events after it before xterm has parsed it.
      const parsed = write(kf.data);
      sanitizer.restore(kf.sanitizer);
      await parsed;
    },
    write,
    resize(c, r) {
      sanitizer.setSize(c, r);
      term.resize(c, r);
      hooks.afterResize?.();
    },
    text: hooks.text,
    screen: hooks.screen,
    selection: hooks.selection,
  };
}
