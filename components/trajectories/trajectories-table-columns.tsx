"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { LinkPending } from "@/components/ui/link-pending";
import type { ColumnDef } from "@tanstack/react-table";
import { GitFork, MessageSquareText } from "lucide-react";
import type { TrajectoryRow } from "@/lib/services/browse/browse-trajectories";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { formatDateTime, formatDuration, formatPercent, formatReward } from "@/lib/format";
import { TRAJECTORY_COLUMN_IDS, TRAJECTORY_COLUMNS, type TrajectoryColumnId } from "@/lib/validation/search-params";
import { OutcomeBadge } from "./outcome-badge";
import { ImportWarningsBadge } from "./import-warnings";
import { Badge } from "@/components/ui/badge";
import "@/components/data-table/column-meta";

const muted = (text: string) => <span className="text-muted-foreground">{text}</span>;

/** Cell renderers, one per column of the registry (TS makes sure none is missing). */
const CELLS: Record<TrajectoryColumnId, (r: TrajectoryRow) => ReactNode> = {
  task: (r) => (
    <div className="flex min-w-0 flex-col">
      <Link
        href={`/trajectories/${r.id}`}
        className="truncate font-medium hover:underline"
        data-testid="trajectory-link"
        title={r.taskName}
      >
        {r.taskName}
        <LinkPending />
      </Link>
      {r.taskCategory || r.warningCount ? (
        <span className="flex min-w-0 items-center gap-1.5">
          {r.taskCategory ? <span className="truncate text-xs text-muted-foreground">{r.taskCategory}</span> : null}
          <ImportWarningsBadge count={r.warningCount} />
        </span>
      ) : null}
    </div>
  ),
  run: (r) => (
    <div className="flex min-w-0 flex-col">
      <span className="truncate" title={r.runName}>
        {r.runName}
      </span>
      <span className="truncate text-xs text-muted-foreground">
        {r.model ?? "—"} · {r.checkpoint ?? "—"}
      </span>
    </div>
  ),
  outcome: (r) => <OutcomeBadge outcome={r.outcome} />,
  reward: (r) => formatReward(r.reward),
  stepCount: (r) => r.stepCount,
  durationMs: (r) => formatDuration(r.durationMs),
  firstError: (r) =>
    r.firstErrorCategory ? (
      <span
        className="flex min-w-0"
        title={`${errorCategoryLabel(r.firstErrorCategory)}${r.firstErrorStep !== null ? ` (first at step ${r.firstErrorStep})` : ""}`}
      >
        <Badge variant="warning" className="block min-w-0 truncate">
          {errorCategoryLabel(r.firstErrorCategory)}
        </Badge>
      </span>
    ) : (
      muted("—")
    ),
  forkPointCount: (r) =>
    r.forkPointCount ? (
      <span className="inline-flex items-center gap-1">
        <GitFork className="size-3 text-primary" aria-hidden /> {r.forkPointCount}
      </span>
    ) : (
      muted("—")
    ),
  attemptCount: (r) =>
    r.isAttempt ? (
      <Link href={`/trajectories/${r.parentId}`} className="hover:underline" title="Open the trajectory this attempt forked from">
        <Badge variant="primary">attempt {(r.attemptIndex ?? 0) + 1}</Badge>
        <LinkPending />
      </Link>
    ) : r.attemptCount ? (
      r.attemptCount
    ) : (
      muted("—")
    ),
  recoveryRate: (r) => (r.recoveryRate === null ? muted("—") : formatPercent(r.recoveryRate)),
  annotations: (r) =>
    r.labels.length ? (
      // The error-category values people gave (blind annotators: their own), as compact chips
      <span
        className="flex min-w-0 items-center gap-1 overflow-hidden"
        data-testid="label-chips"
        title={`${r.annotationCount} ${r.annotationCount === 1 ? "label" : "labels"}: ${r.labels.map(errorCategoryLabel).join(", ")}`}
      >
        {r.labels.slice(0, 2).map((v) => (
          <Badge key={v} variant="primary" className="max-w-28 shrink truncate px-1.5 py-0 text-[11px] font-normal">
            {errorCategoryLabel(v)}
          </Badge>
        ))}
        {r.labels.length > 2 ? <span className="text-muted-foreground text-[11px]">+{r.labels.length - 2}</span> : null}
      </span>
    ) : r.annotationCount || r.annotatedByMe ? (
      <span className="inline-flex items-center gap-1" title={r.annotatedByMe ? "You labelled this trajectory" : undefined}>
        <MessageSquareText className="size-3 text-primary" aria-hidden />
        {r.annotationCount} {r.annotationCount === 1 ? "label" : "labels"}
        {r.annotatedByMe ? <Badge variant="outline">you</Badge> : null}
      </span>
    ) : (
      <span className="text-muted-foreground" title="Not annotated yet">
        —
      </span>
    ),
  importedAt: (r) => <span className="text-muted-foreground tabular-nums">{formatDateTime(r.importedAt)}</span>,
};

const RIGHT = new Set<TrajectoryColumnId>(["reward", "stepCount", "durationMs", "forkPointCount", "attemptCount", "recoveryRate"]);

/** TanStack column defs built from the column registry (lib/validation/search-params/registry.ts). */
export const trajectoryColumns: ColumnDef<TrajectoryRow>[] = TRAJECTORY_COLUMN_IDS.map((id) => {
  const c = TRAJECTORY_COLUMNS[id];
  return {
    id,
    header: c.label,
    size: c.width,
    minSize: 56,
    enableHiding: c.hideable,
    enableSorting: true,
    meta: { label: c.label, align: RIGHT.has(id) ? "right" : "left", filterParam: c.filter },
    cell: ({ row }) => CELLS[id](row.original),
  };
});

/** Hidden unless the user turns them on (the table stays readable on a laptop screen). */
export const DEFAULT_HIDDEN_COLUMNS: TrajectoryColumnId[] = ["importedAt"];
