// Recording time ↔ presentation time under an idle-time cap (asciinema's idle_time_limit): every pause longer
// than the cap is shown as exactly the cap, so a 40-second "thinking" pause does not make the viewer wait.
// The player clock and the scrubber run in presentation time; events, steps and keyframes stay in recording time.
import type { IdleGap } from "./recording.ts";

/** Pauses shorter than this are never compressed, so the server only reports longer ones. */
export const IDLE_GAP_MIN_MS = 500;

export class TimeMap {
  private readonly at: number[] = [];
  private readonly len: number[] = [];
  /** removedBefore[i]: recording ms cut away by gaps 0..i-1. */
  private readonly removedBefore: number[] = [0];
  readonly durationMs: number;
  readonly playDurationMs: number;

  /** @param capMs null = no cap (presentation time equals recording time). */
  constructor(
    gaps: readonly IdleGap[],
    durationMs: number,
    readonly capMs: number | null,
  ) {
    this.durationMs = durationMs;
    if (capMs !== null) {
      for (const [at, len] of gaps) {
        if (len <= capMs) continue;
        this.at.push(at);
        this.len.push(len);
        this.removedBefore.push(this.removedBefore.at(-1)! + (len - capMs));
      }
    }
    this.playDurationMs = Math.max(0, durationMs - this.removedBefore.at(-1)!);
  }

  /** Last compressed gap starting at or before `ms` in the given coordinate (recording or presentation). */
  private gapAt(ms: number, presentation: boolean): number {
    let lo = 0;
    let hi = this.at.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = presentation ? this.at[mid]! - this.removedBefore[mid]! : this.at[mid]!;
      if (start <= ms) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  toPlay(recMs: number): number {
    const r = Math.min(Math.max(recMs, 0), this.durationMs);
    const i = this.gapAt(r, false);
    if (i < 0) return r;
    const into = r - this.at[i]!;
    if (into >= this.len[i]!) return r - this.removedBefore[i + 1]!;
    return this.at[i]! - this.removedBefore[i]! + Math.min(into, this.capMs!);
  }

  toRec(playMs: number): number {
    const p = Math.min(Math.max(playMs, 0), this.playDurationMs);
    const i = this.gapAt(p, true);
    if (i < 0) return p;
    const into = p - (this.at[i]! - this.removedBefore[i]!);
    // The end of a compressed pause is the moment the next event plays, so it maps to the far side.
    if (into < this.capMs!) return this.at[i]! + into;
    return p + this.removedBefore[i + 1]!;
  }
}
