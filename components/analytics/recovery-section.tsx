import Link from "next/link";
import type { RecoveryCategory, RecoveryFigures, RecoveryReport } from "@/lib/services/analytics/get-recovery-analytics";
import { attemptsHref } from "@/lib/validation/analytics-drill-down";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/components/ui/empty-state";
import { ChartCard } from "./chart-card";
import { RecoveryChart } from "./recovery-chart";
import { categoryName, ciText, pct, round } from "./figures";

const KS = ["1", "2", "4", "8"] as const;

function FiguresCells({ r }: { r: RecoveryFigures }) {
  return (
    <>
      <TableCell className="text-right tabular-nums">{r.recoveredForkPoints} / {r.evaluatedForkPoints}</TableCell>
      <TableCell className="text-right tabular-nums">
        {pct(r.recoveryRate)} <span className="text-xs text-muted-foreground">{ciText(r.recoveryRateCi)}</span>
      </TableCell>
      {KS.map((k) => <TableCell key={k} className="text-right tabular-nums">{pct(r.recoveryAtK[k])}</TableCell>)}
      <TableCell className="text-right tabular-nums">{r.meanAttemptsToFirstSuccess === null ? "—" : r.meanAttemptsToFirstSuccess.toFixed(2)}</TableCell>
    </>
  );
}

function RecoveryTable({ report }: { report: RecoveryReport }) {
  const link = (c: RecoveryCategory, passed: boolean) => (
    <Link className="text-primary hover:underline" href={attemptsHref(report, c.category, { passed })} data-testid={passed ? "cell-successful" : "cell-attempts"}>
      {passed ? c.successfulAttempts : c.attempts}
    </Link>
  );
  return (
    <Table aria-label="Recovery by error category">
      <TableHeader>
        <TableRow>
          <TableHead>Error category</TableHead>
          <TableHead className="text-right">Fork points</TableHead>
          <TableHead className="text-right">Attempts</TableHead>
          <TableHead className="text-right">Successful</TableHead>
          <TableHead className="text-right">Recovered / evaluated</TableHead>
          <TableHead className="text-right">Recovery rate [95% CI]</TableHead>
          {KS.map((k) => <TableHead key={k} className="text-right">recovery@{k}</TableHead>)}
          <TableHead className="text-right">To 1st success</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {report.categories.map((c) => (
          <TableRow key={c.category ?? "none"} data-testid="recovery-row">
            <TableCell>
              {categoryName(c.category)}
              {c.labelledForkPoints ? <span className="ml-1 text-xs text-muted-foreground">({c.labelledForkPoints} labelled)</span> : null}
            </TableCell>
            <TableCell className="text-right tabular-nums">{c.forkPoints}</TableCell>
            <TableCell className="text-right tabular-nums">{link(c, false)}</TableCell>
            <TableCell className="text-right tabular-nums">{link(c, true)}</TableCell>
            <FiguresCells r={c} />
          </TableRow>
        ))}
        <TableRow className="font-medium">
          <TableCell>Overall</TableCell>
          <TableCell className="text-right tabular-nums">{report.overall.forkPoints}</TableCell>
          <TableCell className="text-right tabular-nums">{report.overall.attempts}</TableCell>
          <TableCell className="text-right tabular-nums">{report.overall.successfulAttempts}</TableCell>
          <FiguresCells r={report.overall} />
        </TableRow>
      </TableBody>
    </Table>
  );
}

const CSV_COLUMNS = ["category", "forkPoints", "labelledForkPoints", "evaluatedForkPoints", "attempts", "successfulAttempts", "recoveredForkPoints", "recoveryRate", "recoveryRateLo", "recoveryRateHi", "recoveryAt1", "recoveryAt2", "recoveryAt4", "recoveryAt8", "meanAttemptsToFirstSuccess"];
const csvRow = (name: string, r: RecoveryFigures) => [name, r.forkPoints, r.labelledForkPoints, r.evaluatedForkPoints, r.attempts, r.successfulAttempts, r.recoveredForkPoints, round(r.recoveryRate), round(r.recoveryRateCi?.lo), round(r.recoveryRateCi?.hi), ...KS.map((k) => round(r.recoveryAtK[k])), round(r.meanAttemptsToFirstSuccess)];

export function RecoverySection({ report }: { report: RecoveryReport }) {
  if (!report.categories.length) {
    return <EmptyState title="No fork points match">Recovery analytics appear once recovery attempts (forked from failure states) are imported for these runs.</EmptyState>;
  }
  const labelled = report.overall.labelledForkPoints;
  return (
    <ChartCard
      testId="recovery-card"
      title="Recovery by error category"
      fileName="recovery-by-category"
      description={
        <>
          Category of each fork point: the annotators&apos; label where there is one ({labelled} of {report.overall.forkPoints} fork points), else the detected one.
          Recovery rate = fork points with a successful attempt among those with an attempt of known outcome; recovery@k is the unbiased pass@k estimator over each fork point&apos;s attempts. Click a bar to open its trajectories.
        </>
      }
      csv={{ columns: CSV_COLUMNS, rows: [...report.categories.map((c) => csvRow(c.category ?? "", c)), csvRow("overall", report.overall)] }}
      chart={<RecoveryChart bars={report.categories.map((c) => ({ label: categoryName(c.category), attempts: c.attempts, successful: c.successfulAttempts, attemptsHref: attemptsHref(report, c.category), successfulHref: attemptsHref(report, c.category, { passed: true }) }))} />}
      table={<RecoveryTable report={report} />}
    />
  );
}
