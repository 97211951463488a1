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
      <TableCell className="text-right tabular-nums">
        {r.recoveredForkPoints} / {r.evaluatedForkPoints}
        {r.unevaluatedForkPoints ? (
          <span className="block text-xs text-muted-foreground">{r.unevaluatedForkPoints} not evaluated</span>
        ) : null}
      </TableCell>
      <TableCell className="text-right tabular-nums">
        {pct(r.recoveryRate)} <span className="text-xs text-muted-foreground">{ciText(r.recoveryRateCi)}</span>
      </TableCell>
      {KS.map((k) => (
        <TableCell
          key={k}
          className="text-right tabular-nums"
          title={`over the ${r.recoveryAtKForkPoints[k]} fork points with at least ${k} known-outcome attempts`}
        >
          {pct(r.recoveryAtK[k])}{" "}
          <span className="text-xs text-muted-foreground" data-testid={`at-k-n-${k}`}>
            n={r.recoveryAtKForkPoints[k]}
          </span>
        </TableCell>
      ))}
      <TableCell className="text-right tabular-nums">
        {r.meanAttemptsToFirstSuccess === null ? "—" : r.meanAttemptsToFirstSuccess.toFixed(2)}
      </TableCell>
    </>
  );
}

function RecoveryTable({ report }: { report: RecoveryReport }) {
  const link = (c: RecoveryCategory, passed: boolean) => (
    <Link
      className="text-primary hover:underline"
      href={attemptsHref(report, c.category, { passed })}
      data-testid={passed ? "cell-successful" : "cell-attempts"}
    >
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
          {KS.map((k) => (
            <TableHead key={k} className="text-right">
              recovery@{k}
            </TableHead>
          ))}
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
            <TableCell className="text-right tabular-nums">
              {link(c, false)}
              {c.unknownAttempts ? <span className="block text-xs text-muted-foreground">{c.unknownAttempts} unknown</span> : null}
            </TableCell>
            <TableCell className="text-right tabular-nums">{link(c, true)}</TableCell>
            <FiguresCells r={c} />
          </TableRow>
        ))}
        <TableRow className="font-medium">
          <TableCell>Overall</TableCell>
          <TableCell className="text-right tabular-nums">{report.overall.forkPoints}</TableCell>
          <TableCell className="text-right tabular-nums">
            {report.overall.attempts}
            {report.overall.unknownAttempts ? (
              <span className="block text-xs text-muted-foreground">{report.overall.unknownAttempts} unknown</span>
            ) : null}
          </TableCell>
          <TableCell className="text-right tabular-nums">{report.overall.successfulAttempts}</TableCell>
          <FiguresCells r={report.overall} />
        </TableRow>
      </TableBody>
    </Table>
  );
}

const CSV_COLUMNS = [
  "category",
  "forkPoints",
  "labelledForkPoints",
  "evaluatedForkPoints",
  "unevaluatedForkPoints",
  "attempts",
  "unknownAttempts",
  "successfulAttempts",
  "recoveredForkPoints",
  "recoveryRate",
  "recoveryRateLo",
  "recoveryRateHi",
  ...KS.flatMap((k) => [`recoveryAt${k}`, `recoveryAt${k}ForkPoints`]),
  "meanAttemptsToFirstSuccess",
];
const csvRow = (name: string, r: RecoveryFigures) => [
  name,
  r.forkPoints,
  r.labelledForkPoints,
  r.evaluatedForkPoints,
  r.unevaluatedForkPoints,
  r.attempts,
  r.unknownAttempts,
  r.successfulAttempts,
  r.recoveredForkPoints,
  round(r.recoveryRate),
  round(r.recoveryRateCi?.lo),
  round(r.recoveryRateCi?.hi),
  ...KS.flatMap((k) => [round(r.recoveryAtK[k]), r.recoveryAtKForkPoints[k]]),
  round(r.meanAttemptsToFirstSuccess),
];

export function RecoverySection({ report }: { report: RecoveryReport }) {
  if (!report.categories.length) {
    return (
      <EmptyState title="No fork points match">
        Recovery analytics appear once recovery attempts (forked from failure states) are imported for these runs.
      </EmptyState>
    );
  }
  const labelled = report.overall.labelledForkPoints;
  return (
    <ChartCard
      testId="recovery-card"
      title="Recovery by error category"
      fileName="recovery-by-category"
      description={
        <>
          Category of each fork point: the annotators&apos; label where there is one ({labelled} of {report.overall.forkPoints} fork
          points), else the detected one. Bars: recovery rate = fork points with a successful attempt among those with an attempt of known
          outcome, with its 95% (Wilson) interval; attempts of unknown outcome are in no denominator. recovery@k is the unbiased pass@k
          estimator averaged over the fork points with at least k known-outcome attempts — n says how many, so @8 may rest on far fewer fork
          points than @1; — means none. Click a bar to open its attempts.
        </>
      }
      csv={{
        columns: CSV_COLUMNS,
        rows: [...report.categories.map((c) => csvRow(c.category ?? "", c)), csvRow("overall", report.overall)],
      }}
      chart={
        <RecoveryChart
          bars={report.categories.map((c) => ({
            label: categoryName(c.category),
            rate: c.recoveryRate,
            lo: c.recoveryRateCi?.lo ?? null,
            hi: c.recoveryRateCi?.hi ?? null,
            recovered: c.recoveredForkPoints,
            evaluated: c.evaluatedForkPoints,
            unevaluated: c.unevaluatedForkPoints,
            attempts: c.attempts,
            successful: c.successfulAttempts,
            unknownAttempts: c.unknownAttempts,
            attemptsHref: attemptsHref(report, c.category),
          }))}
        />
      }
      table={<RecoveryTable report={report} />}
    />
  );
}
