"use client";
// The trajectory's terminal replay: terminal, timeline and controls, with the step list beside it.
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { TerminalPoster, TERMINAL_MAX_HEIGHT_VAR } from "@/components/terminal/terminal-poster";
import { ClientTerminalView } from "@/components/terminal/client-terminal-view";
import type { TerminalHandle } from "@/components/terminal/terminal-handle";
import { buildMarkers, stepSeekMs, unpackErrorFacts, type MarkerInput, type PackedErrorFacts } from "@/lib/domain/replay/markers";
import { idleCapFor, replayHref } from "@/lib/domain/replay/player-options";
import { unpackReplayIndex, type PackedReplayIndex } from "@/lib/domain/replay/packed-index";
import type { ScreenPoster } from "@/lib/domain/replay/poster";
import type { StepSummary } from "@/lib/domain/replay/recording";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { ReplayControls } from "./replay-controls";
import { ReplayStepList } from "./replay-step-list";
import { ReplayTimeline } from "./replay-timeline";
import { useStepLabels } from "@/components/annotation/step-labels";
import { useReplayHotkeys } from "./use-replay-hotkeys";
import { useReplayPlayer } from "./use-replay-player";

/** What the replay shows besides the session: detector findings, fork points and the result. */
export type ReplayFacts = Omit<MarkerInput, "steps" | "end" | "errors"> & {
  errors: PackedErrorFacts;
  outcome: string;
  reward: number | null;
  /** Whose step-range labels to mark */ trajectoryId?: string;
};

/** What the page sends for the replay (lib/services/replay/opening.ts): plain data, resolved on the server. */
export interface ReplayOpeningProps {
  index: PackedReplayIndex;
  startMs: number;
  stepCount: number;
  stepWindow: { from: number; steps: StepSummary[] };
  /** The opening screen as HTML, shown until the live terminal has drawn it (lib/services/replay/poster.ts). */
  poster: ScreenPoster | null;
}

/**
 * The terminal's height cap: the viewport less what must be on screen with it (the page's header and facts above;
 * timeline, controls and key line below, the controls in two rows at 1280 px), so they are all in the first screen.
 * Never below 12 rem (a phone held sideways). TerminalView's "fit" and the poster keep the rows within it.
 */
const VIEWPORT_CAP = { [TERMINAL_MAX_HEIGHT_VAR]: "max(12rem, calc(100dvh - 21rem))" } as CSSProperties;
/** max-height: var(TERMINAL_MAX_HEIGHT_VAR), spelled out for Tailwind's class scanner. */
const CAPPED = "max-h-(--terminal-max-h)";

export function ReplayView({ opening, facts }: { opening: ReplayOpeningProps; facts: ReplayFacts }) {
  const stepLabels = useStepLabels(facts.trajectoryId);
  const { startMs } = opening;
  const index = useMemo(() => unpackReplayIndex(opening.index), [opening.index]);
  const stepSource = useMemo(
    () => ({ trajectoryId: index.trajectoryId, total: opening.stepCount, initial: opening.stepWindow }),
    [index.trajectoryId, opening.stepCount, opening.stepWindow],
  );
  const markers = useMemo(
    () =>
      buildMarkers(
        {
          ...facts,
          errors: unpackErrorFacts(facts.errors),
          steps: index.steps,
          end: { durationMs: index.durationMs, outcome: facts.outcome, reward: facts.reward },
        },
        errorCategoryLabel,
      ),
    [facts, index],
  );
  const { player, state } = useReplayPlayer("main", index, markers, { startMs, idleCap: idleCapFor(index.idleTimeLimitMs) });
  useReplayHotkeys(player);
  const stage = useRef<HTMLDivElement>(null);
  const terminal = useRef<TerminalHandle | null>(null);
  const [fit, setFit] = useState(true);
  const [fullscreen, setFullscreen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // The poster stays (over the live terminal once that has mounted) until the terminal has drawn the same moment.
  const [posterUp, setPosterUp] = useState(opening.poster !== null);
  useEffect(
    () =>
      player.subscribe(() => {
        const s = player.getState();
        if (s.settled || s.error) setPosterUp(false);
      }),
    [player],
  );
  const forkSteps = useMemo(() => new Set(facts.forks.map((f) => f.stepIndex)), [facts.forks]);
  const listStep = useStepShown(state.currentStep, state.settled);

  const onReady = useCallback(
    (h: TerminalHandle | null) => {
      terminal.current = h;
      player.attach(h);
    },
    [player],
  );

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === stage.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);

  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(null), 2000);
    return () => clearTimeout(t);
  }, [notice]);

  const copy = (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => setNotice(`${what} copied`),
      () => setNotice("Copying is not allowed here"),
    );

  return (
    <section
      aria-label="Terminal replay"
      data-testid="replay"
      style={VIEWPORT_CAP}
      data-status={state.status}
      data-settled={state.settled}
      data-rec-ms={state.recMs}
      data-step={state.currentStep ?? ""}
      data-source={index.source}
    >
      <div className="grid gap-3 xl:grid-cols-[minmax(0,1fr)_21rem]">
        <div
          ref={stage}
          className="relative flex min-w-0 flex-col gap-1.5 rounded-lg border bg-card p-2 [&:fullscreen]:justify-center [&:fullscreen]:bg-background [&:fullscreen]:p-6"
        >
          <ClientTerminalView
            id="main"
            cols={index.cols}
            rows={index.rows}
            fit={fullscreen ? "both" : fit ? "width" : "none"}
            onReady={onReady}
            label={`Terminal replay (${index.source === "recording" ? "recorded session" : "session rebuilt from the steps"})`}
            className={fullscreen ? "min-h-0 flex-1" : fit ? CAPPED : "overflow-x-auto"}
            fallback={opening.poster ? <TerminalPoster id="main" poster={opening.poster} className={CAPPED} /> : undefined}
            overlay={
              posterUp && opening.poster ? (
                <TerminalPoster id="main" poster={opening.poster} className={`absolute inset-x-2 top-2 ${CAPPED}`} />
              ) : null
            }
          />
          <ReplayTimeline player={player} state={state} markers={markers} steps={index.steps} stepLabels={stepLabels} />
          <ReplayControls
            player={player}
            state={state}
            counts={{ errors: markers.filter((x) => x.kind === "error").length, forks: facts.forks.length }}
            view={{
              fit,
              onFit: () => setFit((f) => !f),
              fullscreen,
              onFullscreen: () => (document.fullscreenElement ? void document.exitFullscreen() : void stage.current?.requestFullscreen()),
              onCopyText: () => void copy(terminal.current ? terminal.current.selection() || terminal.current.text() : "", "Terminal text"),
              onCopyLink: () => void copy(`${location.origin}${replayHref(index.trajectoryId, { seconds: state.recMs / 1000 })}`, "Link"),
              notice,
            }}
          />
          <p className="px-1 text-[11px] text-muted-foreground">
            {index.source === "recording"
              ? "Recorded terminal session."
              : "No recording: this session is rebuilt from the steps' commands and outputs."}{" "}
            Keys: Space play/pause · ←/→ seek · [ ] step · e error · f fork.
          </p>
        </div>
        {/* The list must not set the row height (it is as tall as all its steps): it fills the cell instead. */}
        <div className="relative h-72 xl:h-auto">
          <ReplayStepList
            source={stepSource}
            current={listStep}
            forkSteps={forkSteps}
            stepLabels={stepLabels}
            onSelect={(i) => void player.seek(stepSeekMs(index.steps, i) ?? 0)}
            className="absolute inset-0"
          />
        </div>
      </div>
    </section>
  );
}

/**
 * The step the list marks and follows: the player's, once the terminal shows it and the frame that draws it has
 * passed. The list's re-render, scroll and line fetch used to run between a seek's data and its draw, and each seek
 * waited for them.
 */
function useStepShown(step: number | null, settled: boolean): number | null {
  const [shown, setShown] = useState(step);
  useEffect(() => {
    if (!settled || step === shown) return;
    let inner = 0;
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(() => setShown(step));
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, [step, settled, shown]);
  return shown;
}
