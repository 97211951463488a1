"use client";
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  GitFork,
  Link,
  Maximize,
  Minimize,
  Pause,
  Play,
  Scaling,
  SkipBack,
  SkipForward,
  TriangleAlert,
} from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { formatClock, IDLE_CAPS, SPEEDS, type IdleCap, type Speed } from "@/lib/domain/replay/player-options";
import { cn } from "@/lib/utils";
import type { PlayerState, ReplayPlayer } from "./replay-player";

function IconButton({
  label,
  shortcut,
  onClick,
  children,
  pressed,
  testId,
  wide,
}: {
  label: string;
  shortcut?: string;
  onClick: () => void;
  children: ReactNode;
  pressed?: boolean;
  testId?: string;
  wide?: boolean;
}) {
  const title = shortcut ? `${label} (${shortcut})` : label;
  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn("size-8", wide && "w-11 gap-0 [&_svg]:size-3.5", pressed && "bg-accent text-accent-foreground")}
      aria-label={label}
      title={title}
      aria-pressed={pressed}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}

const selectClass = "h-8 rounded-md border border-input bg-background px-1.5 text-xs";

export interface ViewOptions {
  fit: boolean;
  onFit: () => void;
  fullscreen: boolean;
  onFullscreen: () => void;
  onCopyText: () => void;
  onCopyLink: () => void;
  notice: string | null;
}

/** Transport, navigation and view controls of the replay. */
export function ReplayControls({
  player,
  state,
  view,
  counts,
}: {
  player: ReplayPlayer;
  state: PlayerState;
  view: ViewOptions;
  counts: { errors: number; forks: number };
}) {
  const playing = state.status === "playing";
  return (
    <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label="Replay controls">
      <IconButton label="Previous step" shortcut="[" onClick={() => void player.step(-1)} testId="prev-step">
        <SkipBack />
      </IconButton>
      <IconButton label={playing ? "Pause" : "Play"} shortcut="Space" onClick={() => player.toggle()} testId="play-pause">
        {playing ? <Pause /> : <Play />}
      </IconButton>
      <IconButton label="Next step" shortcut="]" onClick={() => void player.step(1)} testId="next-step">
        <SkipForward />
      </IconButton>
      <span className="mx-1 font-mono text-xs tabular-nums text-muted-foreground" data-testid="replay-clock">
        {formatClock(state.playMs)} / {formatClock(state.playDurationMs)}
      </span>
      <IconButton
        wide
        label={`Previous error (${counts.errors} suggested)`}
        shortcut="Shift+E"
        onClick={() => player.marker("error", -1)}
        testId="prev-error"
      >
        <ChevronLeft />
        <TriangleAlert className="text-warning" />
      </IconButton>
      <IconButton
        wide
        label={`Next error (${counts.errors} suggested)`}
        shortcut="e"
        onClick={() => player.marker("error", 1)}
        testId="next-error"
      >
        <TriangleAlert className="text-warning" />
        <ChevronRight />
      </IconButton>
      <IconButton
        wide
        label={`Previous fork point (${counts.forks})`}
        shortcut="Shift+F"
        onClick={() => player.marker("fork", -1)}
        testId="prev-fork"
      >
        <ChevronLeft />
        <GitFork className="text-primary" />
      </IconButton>
      <IconButton wide label={`Next fork point (${counts.forks})`} shortcut="f" onClick={() => player.marker("fork", 1)} testId="next-fork">
        <GitFork className="text-primary" />
        <ChevronRight />
      </IconButton>
      <label className="ml-1 flex items-center gap-1 text-xs text-muted-foreground">
        Speed
        <select
          className={selectClass}
          value={state.speed}
          onChange={(e) => player.setSpeed(SPEEDS.find((s) => String(s) === e.target.value) ?? 1)}
          aria-label="Playback speed"
        >
          {SPEEDS.map((s: Speed) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1 text-xs text-muted-foreground" title="Pauses longer than this are shortened to it">
        Idle cap
        <select
          className={selectClass}
          value={String(state.idleCap)}
          onChange={(e) => player.setIdleCap(IDLE_CAPS.find((c) => String(c) === e.target.value) ?? null)}
          aria-label="Idle time cap"
        >
          {IDLE_CAPS.map((c: IdleCap) => (
            <option key={String(c)} value={String(c)}>
              {c === null ? "off" : `${c / 1000}s`}
            </option>
          ))}
        </select>
      </label>
      <span className="ml-auto text-xs text-muted-foreground" role="status" aria-live="polite">
        {view.notice ?? (state.buffering ? "Loading…" : state.error ? `Error: ${state.error}` : "")}
      </span>
      <IconButton label="Fit to container" onClick={view.onFit} pressed={view.fit}>
        <Scaling />
      </IconButton>
      <IconButton label="Copy terminal text" onClick={view.onCopyText} testId="copy-text">
        <Copy />
      </IconButton>
      <IconButton label="Copy link to this moment" onClick={view.onCopyLink}>
        <Link />
      </IconButton>
      <IconButton label={view.fullscreen ? "Exit full screen" : "Full screen"} onClick={view.onFullscreen}>
        {view.fullscreen ? <Minimize /> : <Maximize />}
      </IconButton>
    </div>
  );
}
