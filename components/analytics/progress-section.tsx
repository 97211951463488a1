import Link from "next/link";
import type { ProgressSeries } from "@/lib/services/analytics/get-training-progress";
import { rolloutsHref, type DrillScope } from "@/lib/validation/analytics-drill-down";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ChartCard } from "./chart-card";
import { ProgressChart } from "./progress-chart";
import { ciText, pct, round } from "./figures";
import type { KKey } from "@/lib/domain/analytics/metrics";

export function ProgressSection({ series, ks, scope }: { series: ProgressSeries[]; ks: readonly number[]; scope: DrillScope }) {
  if (!series.length) return null;
  const rows = series.flatMap((s) => s.points.map((p) => ({ s, p })));
  return (
    <ChartCard
      testId="progress-card"
      title="Training progress: pass@k by checkpoint"
      fileName="pass-at-k-by-checkpoint"
      description="Original rollouts of known outcome only (recovery attempts and unknown outcomes excluded); mean over tasks of the unbiased pass@k, tasks with fewer than k rollouts left out. Shaded band: 95% interval (bootstrap over tasks and rollouts). Each point shows its n; hollow points rest on fewer than 5 rollouts. Click a point to open that run's rollouts."
      csv={{
        columns: [
          "series",
          "run",
          "checkpoint",
          "step",
          "tasks",
          "rollouts",
          "passed",
          "unknown",
          ...ks.flatMap((k) => [`passAt${k}`, `passAt${k}Lo`, `passAt${k}Hi`, `passAt${k}Tasks`]),
        ],
        rows: rows.map(({ s, p }) => [
          s.key,
          p.runName,
          p.checkpoint,
          p.step,
          p.tasks,
          p.rollouts,
          p.passed,
          p.unknown,
          ...ks.flatMap((k) => {
            const key = `${k}` as KKey;
            return [round(p.passAtK[key]), round(p.passAtKCi[key]?.lo), round(p.passAtKCi[key]?.hi), p.passAtKTasks[key]];
          }),
        ]),
      }}
      chart={
        <ProgressChart
          ks={ks}
          series={series.map((s) => ({
            key: s.key,
            model: s.model,
            method: s.method,
            points: s.points.map((p) => ({
              step: p.step ?? 0,
              checkpoint: p.checkpoint ?? "—",
              runName: p.runName,
              passAt: p.passAtK,
              ci: p.passAtKCi,
              tasks: p.passAtKTasks,
              rollouts: p.rollouts,
              unknown: p.unknown,
              lowN: p.lowN,
              href: rolloutsHref(scope, p.runId),
            })),
          }))}
        />
      }
      table={
        <Table aria-label="pass@k by checkpoint">
          <TableHeader>
            <TableRow>
              <TableHead>Model · method</TableHead>
              <TableHead>Checkpoint</TableHead>
              <TableHead>Run</TableHead>
              <TableHead className="text-right">Tasks</TableHead>
              <TableHead className="text-right">Passed / rollouts</TableHead>
              {ks.map((k) => (
                <TableHead key={k} className="text-right">
                  pass@{k} [95% CI] tasks
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ s, p }) => (
              <TableRow key={p.runId}>
                <TableCell>{s.key}</TableCell>
                <TableCell>{p.checkpoint ?? "—"}</TableCell>
                <TableCell>
                  <Link className="text-primary hover:underline" href={rolloutsHref(scope, p.runId)}>
                    {p.runName}
                  </Link>
                </TableCell>
                <TableCell className="text-right tabular-nums">{p.tasks}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {p.passed} / {p.rollouts}
                  {p.unknown ? <span className="block text-xs text-muted-foreground">{p.unknown} unknown</span> : null}
                  {p.lowN ? <span className="block text-xs text-muted-foreground">fewer than 5</span> : null}
                </TableCell>
                {ks.map((k) => {
                  const key = `${k}` as KKey;
                  return (
                    <TableCell key={k} className="text-right tabular-nums">
                      {pct(p.passAtK[key])}{" "}
                      <span className="text-xs text-muted-foreground">
                        {ciText(p.passAtKCi[key])} n={p.passAtKTasks[key]}
                      </span>
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}
