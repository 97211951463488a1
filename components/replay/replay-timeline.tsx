"use client";
// The scrubber: progress, a tick per step, and buttons for errors (detector suggestions), fork points and the
// end result. Positions are in presentation time, so they move when the idle cap changes.
import { useMemo, useRef } from "react";
import { MAX_ERROR_BUTTONS, type ReplayMarker } from "@/lib/domain/replay/markers";
import type { StepTiming } from "@/lib/domain/replay/recording";
import { formatClock } from "@/lib/domain/replay/player-options";
import { cn } from "@/lib/utils";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import type { StepLabel } from "@/components/annotation/step-labels";
import type { PlayerState, ReplayPlayer } from "./replay-player";

const MARKER_STYLE: Record<ReplayMarker["kind"], string> = {
  step: "",
  error: "size-2.5 rounded-full bg-warning ring-2 ring-background",
  fork: "size-3 rotate-45 rounded-[2px] bg-primary ring-2 ring-background",
  end: "h-4 w-1 rounded-sm",
};

export function ReplayTimeline({
  player,
  state,
  markers,
  steps,
  stepLabels = [],
}: {
  player: ReplayPlayer;
  state: PlayerState;
  markers: ReplayMarker[];
  steps: StepTiming[];
  stepLabels?: StepLabel[];
}) {
  const track = useRef<HTMLDivElement>(null);
  const dur = Math.max(state.playDurationMs, 1);
  const pct = (recMs: number) => (player.toPlay(recMs) / dur) * 100;
  const ticks = useMemo(
    () => steps.map((s) => `M${((player.toPlay(s.startMs) / dur) * 1000).toFixed(1)} 0V10`).join(""),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- positions depend on the idle cap through player.toPlay
    [steps, dur, state.idleCap, player],
  );
  // Past MAX_ERROR_BUTTONS errors are dots, reached with the keyboard (e) or the Next error button instead.
  const errors = markers.filter((m) => m.kind === "error");
  const shown = markers.filter((m) => m.kind === "fork" || m.kind === "end" || (m.kind === "error" && errors.length <= MAX_ERROR_BUTTONS));
  const dots = useMemo(
    () => (errors.length > MAX_ERROR_BUTTONS ? errors.map((m) => ((player.toPlay(m.atMs) / dur) * 1000).toFixed(1)) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- positions depend on the idle cap through player.toPlay
    [errors.length, markers, dur, state.idleCap, player],
  );

  const scrub = (clientX: number) => {
    const r = track.current?.getBoundingClientRect();
    if (!r || r.width === 0) return;
    void player.seekPlay(Math.min(1, Math.max(0, (clientX - r.left) / r.width)) * dur);
  };

  return (
    <div className="relative h-9 select-none" data-testid="timeline">
      <div
        ref={track}
        role="slider"
        tabIndex={0}
        aria-label="Replay position"
        aria-valuemin={0}
        aria-valuemax={Math.round(dur / 1000)}
        aria-valuenow={Math.round(state.playMs / 1000)}
        aria-valuetext={`${formatClock(state.playMs)} of ${formatClock(dur)}`}
        className="absolute inset-x-0 top-2.5 h-4 cursor-pointer rounded-sm bg-muted"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          scrub(e.clientX);
        }}
        onPointerMove={(e) => {
          if (e.currentTarget.hasPointerCapture(e.pointerId)) scrub(e.clientX);
        }}
      >
        <div
          className="pointer-events-none absolute inset-y-0 left-0 rounded-sm bg-primary/25"
          style={{ width: `${(state.playMs / dur) * 100}%` }}
        />
        <svg
          className="pointer-events-none absolute inset-0 size-full text-muted-foreground/50"
          viewBox="0 0 1000 10"
          preserveAspectRatio="none"
          aria-hidden
        >
          <path d={ticks} stroke="currentColor" strokeWidth="1" vectorEffect="non-scaling-stroke" />
        </svg>
        {dots.length ? (
          <svg
            className="pointer-events-none absolute inset-0 size-full text-warning"
            viewBox="0 0 1000 10"
            preserveAspectRatio="none"
            aria-hidden
            data-testid="error-dots"
          >
            <path
              d={dots.map((x) => `M${x} 3V7`).join("")}
              stroke="currentColor"
              strokeWidth="3"
              strokeLinecap="round"
              vectorEffect="non-scaling-stroke"
            />
          </svg>
        ) : null}
        {/* A bar under the steps each step-range label covers (start of its first step to end of its last) */}
        {stepLabels.map((l, i) => {
          const first = steps.find((s) => s.index >= l.start);
          const last = steps.findLast((s) => s.index <= l.end);
          if (!first || !last || first.index > l.end) return null;
          const from = first.startMs;
          const to = Math.max(last.endMs, from);
          const left = pct(from);
          return (
            <div
              key={`${l.schemaKey}-${l.start}-${l.end}-${l.value}-${i}`}
              data-testid="timeline-label"
              title={`Steps ${l.start}–${l.end}: ${errorCategoryLabel(l.value)}`}
              className="pointer-events-none absolute bottom-0 h-1 rounded-full bg-primary/70"
              style={{ left: `${left}%`, width: `${Math.max(pct(to) - left, 0.6)}%` }}
            />
          );
        })}
        <div
          className="pointer-events-none absolute inset-y-[-3px] w-0.5 rounded bg-primary"
          style={{ left: `${(state.playMs / dur) * 100}%` }}
        />
      </div>
      {shown.map((m, i) => (
        <button
          key={`${m.kind}-${m.stepIndex}-${i}`}
          type="button"
          data-testid={`marker-${m.kind}`}
          data-step={m.stepIndex ?? ""}
          title={m.suggestion ? `Suggested error (detector): ${m.label}` : m.label}
          className={cn(
            "absolute top-[18px] -translate-x-1/2 -translate-y-1/2 hover:scale-125 focus-visible:scale-125",
            MARKER_STYLE[m.kind],
            m.kind === "end" && (m.label.includes("passed") ? "bg-success" : "bg-destructive"),
          )}
          style={{ left: `${Math.min(pct(m.atMs), 99.7)}%` }}
          onClick={() => void player.seek(m.atMs)}
        />
      ))}
    </div>
  );
}
