import Link from "next/link";
import type { ProgressSeries } from "@/lib/services/analytics/get-training-progress";
import { rolloutsHref, type DrillScope } from "@/lib/validation/analytics-drill-down";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ChartCard } from "./chart-card";
import { ProgressChart } from "./progress-chart";
import { pct, round } from "./figures";

export function ProgressSection({ series, ks, scope }: { series: ProgressSeries[]; ks: readonly number[]; scope: DrillScope }) {
  if (!series.length) return null;
  const rows = series.flatMap((s) => s.points.map((p) => ({ s, p })));
  return (
    <ChartCard
      testId="progress-card"
      title="Training progress: pass@k by checkpoint"
      fileName="pass-at-k-by-checkpoint"
      description="Original rollouts only (recovery attempts excluded); mean over tasks of the unbiased pass@k, tasks with fewer than k rollouts left out. Click a point to open that run's rollouts."
      csv={{
        columns: ["series", "run", "checkpoint", "step", "tasks", "rollouts", "passed", ...ks.map((k) => `passAt${k}`)],
        rows: rows.map(({ s, p }) => [s.key, p.runName, p.checkpoint, p.step, p.tasks, p.rollouts, p.passed, ...ks.map((k) => round(p.passAtK[`${k}` as keyof typeof p.passAtK]))]),
      }}
      chart={<ProgressChart ks={ks} series={series.map((s) => ({ key: s.key, points: s.points.map((p) => ({ step: p.step ?? 0, checkpoint: p.checkpoint ?? "—", runName: p.runName, passAt: p.passAtK, href: rolloutsHref(scope, p.runId) })) }))} />}
      table={
        <Table aria-label="pass@k by checkpoint">
          <TableHeader>
            <TableRow>
              <TableHead>Model · method</TableHead>
              <TableHead>Checkpoint</TableHead>
              <TableHead>Run</TableHead>
              <TableHead className="text-right">Tasks</TableHead>
              <TableHead className="text-right">Rollouts</TableHead>
              {ks.map((k) => <TableHead key={k} className="text-right">pass@{k}</TableHead>)}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ s, p }) => (
              <TableRow key={p.runId}>
                <TableCell>{s.key}</TableCell>
                <TableCell>{p.checkpoint ?? "—"}</TableCell>
                <TableCell><Link className="text-primary hover:underline" href={rolloutsHref(scope, p.runId)}>{p.runName}</Link></TableCell>
                <TableCell className="text-right tabular-nums">{p.tasks}</TableCell>
                <TableCell className="text-right tabular-nums">{p.passed} / {p.rollouts}</TableCell>
                {ks.map((k) => <TableCell key={k} className="text-right tabular-nums">{pct(p.passAtK[`${k}` as keyof typeof p.passAtK])}</TableCell>)}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}
