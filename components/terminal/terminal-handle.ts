// The imperative surface of a terminal view, for the replay controllers. Types only: no xterm here, so the
// replay components can depend on it without pulling xterm into their bundles.
import type { Keyframe } from "@/lib/domain/replay/recording";

export interface TerminalHandle {
  /** Clears screen, scrollback and sanitizer state and sets the size. Call only when no write is pending. */
  reset(cols: number, rows: number): void;
  /** Rebuilds the screen from a keyframe (right after reset). Writes made after the call are parsed after it, so
   * they may be queued before the returned promise resolves. */
  restore(keyframe: Keyframe): Promise<void>;
  /** Untrusted output: sanitized before it reaches xterm. Resolves once xterm has parsed it. */
  write(data: string): Promise<void>;
  resize(cols: number, rows: number): void;
  /** Buffer text (scrollback and screen), soft-wrapped rows joined, trailing blank lines dropped. */
  text(): string;
  /** The visible screen only. */
  screen(): string;
  selection(): string;
}

/** Test and benchmark hook: read a terminal's buffer from the browser (e2e specs, bench/). */
export interface TerminalProbe {
  text(): string;
  screen(): string;
  size(): { cols: number; rows: number };
}

declare global {
  interface Window {
    __retermTerminals?: Record<string, TerminalProbe>;
  }
}
