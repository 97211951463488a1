// Synchronized replay of sibling attempts: one clock, measured from the fork point, drives every terminal.
// Each attempt keeps its own idle-time compression, so "2 s after the fork" means 2 s of each attempt's own
// (capped) session — long thinking pauses do not push one attempt ahead of the other.
import type { TerminalHandle } from "@/components/terminal/terminal-handle";
import type { IdleCap, Speed } from "@/lib/domain/replay/player-options";
import type { ReplayIndex } from "@/lib/domain/replay/recording";
import { TimeMap } from "@/lib/domain/replay/time-map";
import { rangeFetcher } from "./fetch-range";
import { PlaybackClock } from "./playback-clock";
import { TerminalDriver } from "./terminal-driver";

export interface GroupState {
  status: "paused" | "playing" | "ended";
  /** Presentation ms since the fork point. */
  relMs: number;
  durationMs: number;
  speed: Speed;
  idleCap: IdleCap;
  /** Recording time each terminal shows. */
  shown: number[];
}

interface Member {
  driver: TerminalDriver;
  index: ReplayIndex;
  forkRecMs: number;
  map: TimeMap;
}

export class CompareGroup {
  private readonly members: Member[];
  private readonly clock: PlaybackClock;
  private state: GroupState;
  private readonly listeners = new Set<() => void>();

  constructor(sessions: { index: ReplayIndex; forkRecMs: number }[], idleCap: IdleCap) {
    this.members = sessions.map((s) => ({
      ...s,
      driver: new TerminalDriver(s.index, rangeFetcher(s.index.trajectoryId), () => this.emit()),
      map: new TimeMap(s.index.gaps, s.index.durationMs, idleCap),
    }));
    this.clock = new PlaybackClock({
      duration: () => this.durationMs(),
      stalled: () => this.members.some((m) => m.driver.stalled),
      onTick: (rel) => this.show(rel),
      onEnd: () => this.patch({ status: "ended" }),
    });
    this.state = {
      status: "paused",
      relMs: 0,
      durationMs: this.durationMs(),
      speed: 1,
      idleCap,
      shown: this.members.map((m) => m.forkRecMs),
    };
  }

  private durationMs(): number {
    return Math.max(0, ...this.members.map((m) => m.map.playDurationMs - m.map.toPlay(m.forkRecMs)));
  }

  private recFor(m: Member, relMs: number): number {
    return m.map.toRec(Math.min(m.map.toPlay(m.forkRecMs) + relMs, m.map.playDurationMs));
  }

  readonly subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  readonly getState = () => this.state;

  private patch(p: Partial<GroupState>): void {
    this.state = { ...this.state, ...p };
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  private show(relMs: number): Promise<void> {
    const shown = this.members.map((m) => this.recFor(m, relMs));
    this.state = { ...this.state, relMs, shown };
    this.emit();
    return Promise.all(this.members.map((m, i) => (m.driver.attached ? m.driver.show(shown[i]!) : undefined))).then(() => undefined);
  }

  attach(i: number, term: TerminalHandle | null): void {
    const m = this.members[i];
    if (!m) return;
    m.driver.attach(term);
    if (term) void m.driver.show(this.recFor(m, this.state.relMs));
  }

  play(): void {
    if (this.state.status === "ended") this.clock.seek(0);
    this.clock.play();
    this.patch({ status: "playing" });
  }

  pause(): void {
    this.clock.pause();
    this.patch({ status: "paused" });
  }

  toggle(): void {
    if (this.state.status === "playing") this.pause();
    else this.play();
  }

  seek(relMs: number): Promise<void> {
    this.clock.seek(relMs);
    if (this.state.status === "ended") this.patch({ status: "paused" });
    return this.show(this.clock.position);
  }

  setSpeed(speed: Speed): void {
    this.clock.speed = speed;
    this.patch({ speed });
  }

  setIdleCap(idleCap: IdleCap): void {
    for (const m of this.members) m.map = new TimeMap(m.index.gaps, m.index.durationMs, idleCap);
    this.patch({ idleCap, durationMs: this.durationMs() });
    void this.seek(Math.min(this.state.relMs, this.state.durationMs));
  }

  dispose(): void {
    this.clock.pause();
  }
}
