// The player controller (asciinema-player's core): play/pause, speed, idle-time cap, seek, step and marker
// navigation, and a state snapshot to subscribe to. Views (controls, timeline, step list, keyboard) talk to
// this object, never to xterm; the terminal itself is driven by a TerminalDriver.
import type { TerminalHandle } from "@/components/terminal/terminal-handle";
import { adjacentMarker, adjacentStep, stepIndexAt, type MarkerKind, type ReplayMarker } from "@/lib/domain/replay/markers";
import type { IdleCap, Speed } from "@/lib/domain/replay/player-options";
import type { ReplayIndex } from "@/lib/domain/replay/recording";
import { TimeMap } from "@/lib/domain/replay/time-map";
import { PlaybackClock } from "./playback-clock";
import { TerminalDriver, type RangeFetcher } from "./terminal-driver";

export interface PlayerState {
  status: "paused" | "playing" | "ended";
  buffering: boolean;
  /** Recording time shown. */
  recMs: number;
  /** Presentation time (idle pauses capped) — what the scrubber shows. */
  playMs: number;
  playDurationMs: number;
  speed: Speed;
  idleCap: IdleCap;
  currentStep: number | null;
  /** True once the terminal shows the requested moment. */
  settled: boolean;
  error: string | null;
}

const EMIT_EVERY_MS = 80;

export class ReplayPlayer {
  readonly driver: TerminalDriver;
  private readonly clock: PlaybackClock;
  private timeMap: TimeMap;
  private state: PlayerState;
  private readonly listeners = new Set<() => void>();
  private lastEmit = 0;

  constructor(
    readonly index: ReplayIndex,
    readonly markers: ReplayMarker[],
    fetchRange: RangeFetcher,
    opts: { idleCap: IdleCap; speed: Speed; startMs: number },
  ) {
    this.timeMap = new TimeMap(index.gaps, index.durationMs, opts.idleCap);
    this.driver = new TerminalDriver(index, fetchRange, () => this.settle());
    this.clock = new PlaybackClock({
      duration: () => this.timeMap.playDurationMs,
      stalled: () => this.driver.stalled,
      onTick: (play) => this.moveTo(this.timeMap.toRec(play), false),
      onEnd: () => this.update({ status: "ended" }, true),
    });
    const recMs = Math.min(Math.max(0, opts.startMs), index.durationMs);
    this.clock.seek(this.timeMap.toPlay(recMs));
    this.state = {
      status: "paused",
      buffering: false,
      recMs,
      playMs: this.clock.position,
      playDurationMs: this.timeMap.playDurationMs,
      speed: opts.speed,
      idleCap: opts.idleCap,
      currentStep: stepIndexAt(index.steps, recMs),
      settled: false,
      error: null,
    };
    this.clock.speed = opts.speed;
  }

  /** Browser only (an effect): fetch the first frame's data while the terminal bundle loads. */
  prepare(): void {
    this.driver.prepare(this.state.recMs);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): PlayerState => this.state;

  private update(patch: Partial<PlayerState>, force: boolean): void {
    const next = { ...this.state, ...patch };
    const stepChanged = next.currentStep !== this.state.currentStep;
    this.state = next;
    const now = performance.now();
    if (!force && !stepChanged && now - this.lastEmit < EMIT_EVERY_MS) return;
    this.lastEmit = now;
    for (const l of this.listeners) l();
  }

  private settle(): void {
    const shown = this.driver.shownMs;
    this.update({ settled: shown === this.state.recMs, buffering: false, error: this.driver.lastError }, true);
  }

  /** Moves asked for before the terminal exists (the xterm bundle is loading): they resolve once it shows the latest. */
  private untilAttached: (() => void)[] = [];

  private moveTo(recMs: number, force: boolean): Promise<void> {
    this.update(
      {
        recMs,
        playMs: this.clock.position,
        currentStep: stepIndexAt(this.index.steps, recMs),
        settled: false,
        buffering: this.driver.stalled,
      },
      force,
    );
    if (this.driver.attached) return this.driver.show(recMs);
    return new Promise((resolve) => this.untilAttached.push(resolve));
  }

  readonly attach = (term: TerminalHandle | null): void => {
    this.driver.attach(term);
    if (!term) return;
    const waiting = this.untilAttached.splice(0);
    void this.driver.show(this.state.recMs).finally(() => {
      for (const resolve of waiting) resolve();
    });
  };

  play(): void {
    if (this.state.status === "ended") this.clock.seek(0);
    this.clock.play();
    this.update({ status: "playing" }, true);
  }

  pause(): void {
    this.clock.pause();
    this.update({ status: "paused" }, true);
  }

  toggle(): void {
    if (this.state.status === "playing") this.pause();
    else this.play();
  }

  /** Show recording time `recMs`; resolves when the terminal shows it. */
  seek(recMs: number): Promise<void> {
    const rec = Math.min(Math.max(0, recMs), this.index.durationMs);
    this.clock.seek(this.timeMap.toPlay(rec));
    if (this.state.status === "ended") this.update({ status: "paused" }, true);
    // Asked before the terminal exists (its bundle is loading): fetch this moment's data meanwhile, so the
    // terminal shows it as soon as it is up instead of requesting it then.
    if (!this.driver.attached) this.driver.prepare(rec);
    return this.moveTo(rec, true);
  }

  /** Scrubber position in presentation time. */
  seekPlay(playMs: number): Promise<void> {
    return this.seek(this.timeMap.toRec(playMs));
  }

  seekBy(deltaPlayMs: number): Promise<void> {
    return this.seekPlay(this.clock.position + deltaPlayMs);
  }

  /** Previous/next step (command): lands after that step's output. */
  step(dir: 1 | -1): Promise<void> {
    const s = adjacentStep(this.index.steps, this.state.recMs, dir);
    return s ? this.seek(s.endMs) : Promise.resolve();
  }

  /** Previous/next marker of a kind (error, fork…); returns it, or null when there is none. */
  marker(kind: MarkerKind, dir: 1 | -1): ReplayMarker | null {
    const m = adjacentMarker(this.markers, kind, this.state.recMs, dir);
    if (m) void this.seek(m.atMs);
    return m;
  }

  setSpeed(speed: Speed): void {
    this.clock.speed = speed;
    this.update({ speed }, true);
  }

  setIdleCap(idleCap: IdleCap): void {
    this.timeMap = new TimeMap(this.index.gaps, this.index.durationMs, idleCap);
    this.clock.seek(this.timeMap.toPlay(this.state.recMs));
    this.update({ idleCap, playMs: this.clock.position, playDurationMs: this.timeMap.playDurationMs }, true);
  }

  toPlay(recMs: number): number {
    return this.timeMap.toPlay(recMs);
  }

  /** Stops playback; the terminal view detaches itself when it unmounts. */
  dispose(): void {
    this.clock.pause();
    for (const resolve of this.untilAttached.splice(0)) resolve();
  }
}
