import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import type { FailureModeComparison, ModeChange } from "@/lib/services/failure-modes";
import type { FailureModeFilter } from "@/lib/validation/failure-modes-params";
import { modeTableHref, pct } from "./links";

function pp(v: number): string {
  return `${v >= 0 ? "+" : "−"}${Math.abs(v * 100).toFixed(1)}`;
}

function ChangeTable({ title, rows, filter, testId }: { title: string; rows: ModeChange[]; filter: FailureModeFilter; testId: string }) {
  return (
    <section className="flex flex-col gap-2" data-testid={testId}>
      <h3 className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({rows.length})</span>
      </h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">None.</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="min-w-[20rem]">Failure mode</TableHead>
              <TableHead className="text-right">Baseline</TableHead>
              <TableHead className="text-right">Compared</TableHead>
              <TableHead className="text-right">Change (pp, 95% CI)</TableHead>
              <TableHead>Suggested category</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id}>
                <TableCell className="max-w-[32rem] whitespace-normal">
                  <Link href={modeTableHref(r.id, filter)} className="font-mono text-xs break-words hover:underline">
                    {r.signature}
                  </Link>
                </TableCell>
                <TableCell className="text-right tabular-nums" title={`${r.baseline.failedTrajectories} failed trajectories`}>
                  {pct(r.baseline.share)}
                </TableCell>
                <TableCell className="text-right tabular-nums" title={`${r.compared.failedTrajectories} failed trajectories`}>
                  {pct(r.compared.share)}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.difference ? (
                    <span
                      className={r.significant ? (r.difference.diff > 0 ? "font-medium text-destructive" : "font-medium text-success") : ""}
                    >
                      {pp(r.difference.diff)}{" "}
                      <span className="text-xs text-muted-foreground">
                        [{pp(r.difference.ci.lo)}, {pp(r.difference.ci.hi)}]
                      </span>
                    </span>
                  ) : (
                    "—"
                  )}
                </TableCell>
                <TableCell>
                  <Badge variant="outline">{errorCategoryLabel(r.category)}</Badge>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

/** Two runs or checkpoints side by side: shares of each side's failed trajectories, and what changed. */
export function FailureModeComparisonView({
  comparison,
  baselineLabel,
  comparedLabel,
  filter,
}: {
  comparison: FailureModeComparison;
  baselineLabel: string;
  comparedLabel: string;
  filter: FailureModeFilter;
}) {
  const c = comparison;
  return (
    <section
      className="flex flex-col gap-4 rounded-lg border p-4"
      aria-labelledby="fm-compare-heading"
      data-testid="failure-mode-comparison"
    >
      <div>
        <h2 id="fm-compare-heading" className="text-lg font-semibold">
          Compare {c.by === "run" ? "runs" : "checkpoints"}: {baselineLabel} → {comparedLabel}
        </h2>
        <p className="text-sm text-muted-foreground">
          Shares are of each side&apos;s failed trajectories ({c.baseline.failedTrajectories} baseline, {c.compared.failedTrajectories}{" "}
          compared). A change is marked when its 95% interval (Newcombe) excludes zero: red grew, green shrank.
        </p>
      </div>
      <ChangeTable title="Only in compared" rows={c.onlyInCompared} filter={filter} testId="only-in-compared" />
      <ChangeTable title="Only in baseline" rows={c.onlyInBaseline} filter={filter} testId="only-in-baseline" />
      <ChangeTable title="In both (largest change first)" rows={c.changed} filter={filter} testId="changed" />
    </section>
  );
}
