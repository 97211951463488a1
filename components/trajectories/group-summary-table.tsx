import Link from "next/link";
import type { ReactNode } from "react";
import type { GroupSummary } from "@/lib/services/browse/browse-catalog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatPercent } from "@/lib/format";
import { cn } from "@/lib/utils";
import type { Interval } from "@/lib/domain/analytics/intervals";

export interface SummaryColumn<R> {
  label: string;
  align?: "right";
  render: (row: R) => ReactNode;
}

/** A share as a percentage with a thin bar (nothing when undefined). */
export function ShareBar({ value }: { value: number | null }) {
  if (value === null) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center justify-end gap-2">
      <span className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-muted sm:inline-block" aria-hidden>
        <span className="block h-full rounded-full bg-primary" style={{ width: `${Math.round(value * 100)}%` }} />
      </span>
      <span className="w-10 tabular-nums">{formatPercent(value)}</span>
    </span>
  );
}

/** A pass or recovery rate with its 95% interval and, when some outcomes are unknown, how many were left out. */
export function RateCell({
  value,
  ci,
  unknown,
  unknownLabel = "unknown",
  testId,
}: {
  value: number | null;
  ci: Interval | null;
  unknown: number;
  unknownLabel?: string;
  testId?: string;
}) {
  return (
    <span className="inline-flex flex-col items-end" data-testid={testId}>
      <ShareBar value={value} />
      {ci || unknown ? (
        <span className="text-xs text-muted-foreground">
          {ci ? `[${formatPercent(ci.lo)}, ${formatPercent(ci.hi)}]` : null}
          {ci && unknown ? " · " : null}
          {unknown ? (
            <span data-testid="unknown-count">
              {formatCount(unknown)} {unknownLabel}
            </span>
          ) : null}
        </span>
      ) : null}
    </span>
  );
}

/**
 * Columns shared by every task/run summary: rollouts, passes, pass rate (unknown outcomes left out and counted),
 * recovery attempts and recovery rate (fork points recovered among those with a known-outcome attempt).
 */
export function outcomeColumns<R extends GroupSummary>(): SummaryColumn<R>[] {
  return [
    { label: "Rollouts", align: "right", render: (r) => formatCount(r.figures.rollouts) },
    { label: "Passed", align: "right", render: (r) => formatCount(r.figures.passed) },
    {
      label: "Pass rate",
      align: "right",
      render: (r) => <RateCell value={r.figures.passRate.rate} ci={r.figures.passRate.ci} unknown={r.figures.unknown} testId="pass-rate" />,
    },
    {
      label: "Recovery attempts",
      align: "right",
      render: (r) => (r.recovery.attempts ? formatCount(r.recovery.attempts) : <span className="text-muted-foreground">—</span>),
    },
    {
      label: "Recovery rate",
      align: "right",
      render: (r) => (
        <RateCell
          value={r.recovery.recoveryRate}
          ci={r.recovery.recoveryRateCi}
          unknown={r.recovery.unknownAttempts}
          unknownLabel="attempts unknown"
          testId="recovery-rate"
        />
      ),
    },
  ];
}

/** A linked name with an optional detail line. */
export function NameCell({ href, name, detail }: { href: string; name: string; detail?: string | null }) {
  return (
    <div className="flex flex-col">
      <Link className="font-medium hover:underline" href={href}>
        {name}
      </Link>
      {detail ? <span className="text-xs text-muted-foreground">{detail}</span> : null}
    </div>
  );
}

/** A summary table of tasks, runs or categories. Pass rates count original rollouts of known outcome only, never recovery attempts. */
export function GroupSummaryTable<R extends { id: string }>({
  rows,
  columns,
  label,
  testId,
}: {
  rows: R[];
  columns: SummaryColumn<R>[];
  label: string;
  testId?: string;
}) {
  return (
    <div className="rounded-lg border bg-card">
      <Table aria-label={label}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {columns.map((c) => (
              <TableHead key={c.label} className={cn(c.align === "right" && "text-right")}>
                {c.label}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id} data-testid={testId}>
              {columns.map((c) => (
                <TableCell key={c.label} className={cn(c.align === "right" && "text-right tabular-nums")}>
                  {c.render(r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
