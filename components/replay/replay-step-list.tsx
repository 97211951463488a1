"use client";
// One line per step beside the terminal, following playback. Virtualized: thousands of steps render a few dozen
// rows, and their lines are fetched in pages as they scroll into view (use-step-summaries.ts). Following pauses
// for a few seconds after the reader scrolls the list themselves.
import { useEffect, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Bot, Copy, GitFork, MessageSquare, TriangleAlert } from "lucide-react";
import type { StepSummary } from "@/lib/domain/replay/recording";
import { cn } from "@/lib/utils";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { labelsAt, type StepLabel } from "@/components/annotation/step-labels";
import { useStepSummaries } from "./use-step-summaries";

const ROW_PX = 44;
const FOLLOW_PAUSE_MS = 4000;

export interface StepListSource {
  trajectoryId: string;
  /** Steps in the trajectory: the list's length before its lines are loaded. */
  total: number;
  /** Lines sent with the page (around where the replay opens). */
  initial: { from: number; steps: StepSummary[] };
}

export function ReplayStepList({
  source,
  current,
  forkSteps,
  stepLabels = [],
  onSelect,
  className,
}: {
  source: StepListSource;
  current: number | null;
  forkSteps: ReadonlySet<number>;
  stepLabels?: StepLabel[];
  onSelect: (index: number) => void;
  className?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // Never, at first: with 0 the list did not follow for the first 4 s after navigation (a deep link opened at step 0).
  const userScrolledAt = useRef(Number.NEGATIVE_INFINITY);
  const { rows, want, error } = useStepSummaries(source.trajectoryId, source.total, source.initial);
  // eslint-disable-next-line react-hooks/incompatible-library -- the list re-renders on every change anyway; nothing here relies on memoization
  const virtualizer = useVirtualizer({
    count: source.total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const firstShown = items[0]?.index ?? 0;
  const lastShown = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (source.total) want(firstShown, lastShown + 1);
  }, [firstShown, lastShown, want, source.total]);

  useEffect(() => {
    if (current === null || performance.now() - userScrolledAt.current < FOLLOW_PAUSE_MS) return;
    virtualizer.scrollToIndex(current, { align: "auto" });
  }, [current, virtualizer]);

  return (
    <div
      ref={scroller}
      className={cn("overflow-auto rounded-md border bg-card", className)}
      role="list"
      aria-label="Steps"
      data-testid="replay-step-list"
      onWheel={() => (userScrolledAt.current = performance.now())}
      onTouchMove={() => (userScrolledAt.current = performance.now())}
    >
      {error ? (
        <p role="alert" className="sticky top-0 z-10 border-b bg-destructive/10 px-2 py-1 text-xs text-destructive">
          {error}
        </p>
      ) : null}
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((row) => {
          const s = rows.get(row.index);
          if (!s) {
            return (
              <div key={row.index} role="listitem" className="absolute inset-x-0" style={{ top: row.start, height: row.size }}>
                <div
                  data-testid="replay-step-pending"
                  data-step={row.index}
                  className="flex h-full items-center gap-2 border-b px-2 text-xs text-muted-foreground"
                >
                  <span className="w-9 shrink-0 font-mono tabular-nums">#{row.index}</span>
                  <span className="h-2.5 flex-1 animate-pulse rounded bg-muted" aria-label="loading" />
                </div>
              </div>
            );
          }
          const active = s.index === current;
          const labels = labelsAt(stepLabels, s.index);
          return (
            <div key={s.index} role="listitem" className="absolute inset-x-0" style={{ top: row.start, height: row.size }}>
              <button
                type="button"
                data-testid="replay-step"
                data-step={s.index}
                aria-current={active ? "step" : undefined}
                onClick={() => onSelect(s.index)}
                className={cn(
                  "flex h-full w-full items-center gap-2 border-b px-2 text-left text-xs hover:bg-accent",
                  active && "bg-primary/10 shadow-[inset_3px_0_0_var(--primary)]",
                  s.isCopiedContext && "text-muted-foreground",
                )}
              >
                <span className="w-9 shrink-0 font-mono text-muted-foreground tabular-nums">#{s.index}</span>
                {s.command ? (
                  <Bot className="size-3.5 shrink-0 text-muted-foreground" aria-label="command" />
                ) : (
                  <MessageSquare className="size-3.5 shrink-0 text-muted-foreground" aria-label={s.source} />
                )}
                <span className={cn("min-w-0 flex-1 truncate", s.command && "font-mono")} title={s.command ?? undefined}>
                  {s.command ?? <span className="italic text-muted-foreground">{s.source} turn</span>}
                  {s.more ? <span className="text-muted-foreground"> …</span> : null}
                </span>
                {s.isCopiedContext ? <Copy className="size-3 shrink-0 text-muted-foreground" aria-label="shared prefix" /> : null}
                {s.exitCode !== null && s.exitCode !== 0 ? (
                  <span className="shrink-0 rounded bg-destructive/15 px-1 font-mono text-destructive">{s.exitCode}</span>
                ) : null}
                {s.isError ? <TriangleAlert className="size-3.5 shrink-0 text-warning" aria-label="error detected (suggestion)" /> : null}
                {labels.length ? (
                  <span
                    data-testid="step-label"
                    className="max-w-28 shrink-0 truncate rounded bg-primary/15 px-1 text-primary"
                    title={`Labelled: ${labels.map(errorCategoryLabel).join(", ")}`}
                  >
                    {errorCategoryLabel(labels[0]!)}
                    {labels.length > 1 ? ` +${labels.length - 1}` : ""}
                  </span>
                ) : null}
                {forkSteps.has(s.index) ? <GitFork className="size-3.5 shrink-0 text-primary" aria-label="fork point" /> : null}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
