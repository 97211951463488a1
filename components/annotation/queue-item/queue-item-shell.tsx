"use client";
// The queue item's one screen: a slim header, the replay (terminal, timeline, controls, then the step list filling
// what height is left) and the labelling panel beside it, each scrolling on its own so nothing the annotator needs
// is below the fold. While this item is labelled, the next one is reserved and its page (data and the replay's
// opening screen) fetched, so Enter moves on without a page load.
import { useCallback, useEffect, type ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { PrefetchOptions } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { ChevronLeft } from "lucide-react";
import type { LabellingView } from "@/lib/services/annotation/labelling-view";
import { reserveAheadAction } from "@/lib/actions/annotation";
import { Badge } from "@/components/ui/badge";
import { LabelPanel } from "../label-panel";

/**
 * The replay component lays out terminal | step list side by side on wide screens; beside the panel that leaves the
 * terminal too narrow, so from lg up it stacks and the step list takes the remaining height (below lg the replay
 * keeps the layout it has on the trajectory page).
 */
const STACKED_REPLAY = [
  "lg:[&_[data-testid=replay]]:h-full",
  "lg:[&_[data-testid=replay]>div]:!flex lg:[&_[data-testid=replay]>div]:h-full lg:[&_[data-testid=replay]>div]:flex-col lg:[&_[data-testid=replay]>div]:gap-2",
  "lg:[&_[data-testid=replay]>div>div:last-child]:!h-auto lg:[&_[data-testid=replay]>div>div:last-child]:min-h-28 lg:[&_[data-testid=replay]>div>div:last-child]:flex-1",
].join(" ");

// A full prefetch: the page's dynamic data too (by default a dynamic route prefetches only its layout).
const FULL = { kind: "full" } as unknown as PrefetchOptions;

export function QueueItemShell({
  queueId,
  slotId,
  header,
  panel,
  children,
}: {
  queueId: string;
  slotId: string;
  header: { queueName: string; task: string; outcome: string; trajectoryId: string; stepCount: number; reservationMinutes: number };
  panel: { trajectoryId: string; stepCount: number; forkSteps: number[]; view: LabellingView };
  children: ReactNode;
}) {
  const router = useRouter();
  useEffect(() => {
    let live = true;
    void reserveAheadAction({ queueId, slotId }).then((r) => {
      if (!live || !r.ok || r.data.href === null) return;
      router.prefetch(r.data.href, FULL);
    });
    return () => {
      live = false;
    };
  }, [queueId, slotId, router]);
  const advance = useCallback((href: string) => router.push(href, { scroll: false }), [router]);
  const q = panel.view.queue;
  return (
    // One screen from lg up (each column scrolls on its own); below, one column in the page's own scroll.
    <div className="flex flex-col gap-2 lg:h-[calc(100dvh-2.5rem)] lg:min-h-[34rem]" data-testid="queue-item" data-slot={slotId}>
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Link
          href={`/annotation/queues/${encodeURIComponent(queueId)}`}
          className="inline-flex items-center gap-1 text-muted-foreground hover:text-foreground"
        >
          <ChevronLeft className="size-4" aria-hidden /> {header.queueName}
        </Link>
        {q ? (
          <span className="text-muted-foreground">
            item {q.position + 1} of {q.itemCount}
          </span>
        ) : null}
        <h1 className="min-w-0 truncate text-base font-semibold" title={header.task}>
          {header.task}
        </h1>
        <Badge variant={header.outcome === "failed" ? "destructive" : "outline"}>{header.outcome}</Badge>
        <span className="text-xs text-muted-foreground">
          {header.stepCount} steps · reservation kept {header.reservationMinutes} min while idle
        </span>
        <Link
          href={`/trajectories/${encodeURIComponent(header.trajectoryId)}`}
          prefetch={false}
          className="ml-auto text-xs text-muted-foreground underline-offset-2 hover:underline"
        >
          Trajectory page
        </Link>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 lg:min-h-0 lg:flex-1 lg:grid-cols-[minmax(0,1fr)_25rem]">
        <div className={`min-w-0 lg:min-h-0 lg:overflow-y-auto ${STACKED_REPLAY}`}>{children}</div>
        <LabelPanel {...panel} onAdvance={advance} className="lg:min-h-0 lg:overflow-y-auto" />
      </div>
    </div>
  );
}
