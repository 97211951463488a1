"use client";
// Two or more recovery attempts from one fork point, replayed side by side on one clock that starts at the fork.
import Link from "next/link";
import { use, useEffect, useState, useSyncExternalStore } from "react";
import { Pause, Play } from "lucide-react";
import { ClientTerminalView } from "@/components/terminal/client-terminal-view";
import { Button } from "@/components/ui/button";
import { OutcomeBadge } from "@/components/trajectories/outcome-badge";
import { DEFAULT_IDLE_CAP_MS, formatClock, IDLE_CAPS, SPEEDS } from "@/lib/domain/replay/player-options";
import type { ReplayManifest } from "@/lib/domain/replay/recording";
import { formatReward } from "@/lib/format";
import type { ComparedAttempt } from "@/lib/services/replay";
import { CompareGroup } from "./compare-group";

/** Where an attempt's own recording reaches the fork point: the end of its last copied (shared-prefix) step. */
function forkRecMs(m: ReplayManifest, forkStepIndex: number): number {
  const copied = m.steps.filter((s) => s.isCopiedContext && s.index <= forkStepIndex).at(-1);
  return copied ? (m.index.steps.find((t) => t.index === copied.index)?.endMs ?? 0) : 0;
}

const selectClass = "h-8 rounded-md border border-input bg-background px-1.5 text-xs";

export function SiblingCompareView({
  attempts,
  manifests,
  forkStepIndex,
}: {
  attempts: ComparedAttempt[];
  manifests: Promise<ReplayManifest>[];
  forkStepIndex: number;
}) {
  const loaded = manifests.map((p) => use(p));
  const [group] = useState(
    () =>
      new CompareGroup(
        loaded.map((m) => ({ index: m.index, forkRecMs: forkRecMs(m, forkStepIndex) })),
        DEFAULT_IDLE_CAP_MS,
      ),
  );
  const state = useSyncExternalStore(group.subscribe, group.getState, group.getState);
  useEffect(() => () => group.dispose(), [group]);
  const dur = Math.max(state.durationMs, 1);

  return (
    <section aria-label="Side-by-side replay" data-testid="sibling-compare" data-status={state.status} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => group.toggle()}
          aria-label={state.status === "playing" ? "Pause" : "Play"}
          data-testid="compare-play"
        >
          {state.status === "playing" ? <Pause /> : <Play />}
        </Button>
        <span className="font-mono text-xs tabular-nums text-muted-foreground">
          fork +{formatClock(state.relMs)} / {formatClock(dur)}
        </span>
        <input
          type="range"
          min={0}
          max={dur}
          step={100}
          value={state.relMs}
          onChange={(e) => void group.seek(Number(e.target.value))}
          className="min-w-40 flex-1 accent-[var(--primary)]"
          aria-label="Time since the fork point"
          data-testid="compare-scrubber"
        />
        <select
          className={selectClass}
          aria-label="Playback speed"
          value={state.speed}
          onChange={(e) => group.setSpeed(SPEEDS.find((s) => String(s) === e.target.value) ?? 1)}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
        <select
          className={selectClass}
          aria-label="Idle time cap"
          value={String(state.idleCap)}
          onChange={(e) => group.setIdleCap(IDLE_CAPS.find((c) => String(c) === e.target.value) ?? null)}
        >
          {IDLE_CAPS.map((c) => (
            <option key={String(c)} value={String(c)}>
              idle {c === null ? "off" : `${c / 1000}s`}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(${Math.min(attempts.length, 2)}, minmax(0, 1fr))` }}>
        {attempts.map((a, i) => (
          <article
            key={a.id}
            className="flex min-w-0 flex-col gap-2 rounded-lg border bg-card p-2"
            data-testid="compared-attempt"
            data-attempt={a.id}
          >
            <header className="flex flex-wrap items-center gap-2 text-sm">
              <Link prefetch={false} href={`/trajectories/${a.id}`} className="font-semibold hover:underline">
                Attempt #{(a.attemptIndex ?? i) + 1}
              </Link>
              <OutcomeBadge outcome={a.outcome} />
              <span className="text-xs text-muted-foreground">
                r={formatReward(a.reward)} · {a.stepCount} steps · {a.steps.length} after the fork
              </span>
            </header>
            <ClientTerminalView
              id={`attempt-${a.id}`}
              cols={loaded[i]!.index.cols}
              rows={loaded[i]!.index.rows}
              fit="width"
              onReady={(h) => group.attach(i, h)}
              label={`Attempt ${(a.attemptIndex ?? i) + 1} terminal`}
            />
          </article>
        ))}
      </div>
    </section>
  );
}
