import Link from "next/link";
import type { RunComparison } from "@/lib/services/analytics/compare-runs";
import type { RateDifference } from "@/lib/domain/analytics/intervals";
import { rolloutsHref, type DrillScope } from "@/lib/validation/analytics-drill-down";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { categoryName, ciText, pct, signedPct } from "./figures";

function Diff({ d }: { d: { diff: number; ci: { lo: number; hi: number } } | null | undefined }) {
  if (!d) return null;
  const significant = d.ci.lo > 0 || d.ci.hi < 0;
  return (
    <span
      className={significant ? "font-semibold" : undefined}
      title={significant ? "95% interval excludes zero" : "95% interval includes zero"}
    >
      {signedPct(d.diff)}
      <span className="block text-xs font-normal text-muted-foreground">{ciText(d.ci, true)}</span>
    </span>
  );
}

/** A rate with its interval on a second line, so wide tables stay readable. */
function Rate({ value, ci, unknown }: { value: number | null; ci?: { lo: number; hi: number } | null; unknown?: number }) {
  return (
    <span>
      {pct(value)}
      {ci ? <span className="block text-xs text-muted-foreground">{ciText(ci)}</span> : null}
      {unknown ? <span className="block text-xs text-muted-foreground">{unknown} unknown</span> : null}
    </span>
  );
}

/** Runs side by side against the first (baseline), overall and per error category, with 95% intervals. */
export function ComparisonSection({ comparison, scope }: { comparison: RunComparison; scope: DrillScope }) {
  const [base, ...others] = comparison.runs;
  const categories = [...new Set(comparison.runs.flatMap((r) => r.byCategory.map((c) => c.category)))];
  const recoveryOf = (i: number, cat: string | null) => comparison.runs[i]!.byCategory.find((c) => c.category === cat)?.recovery ?? null;
  const diffOf = (i: number, cat: string | null): RateDifference | null =>
    comparison.runs[i]!.vsBaseline?.byCategory.find((c) => c.category === cat)?.recoveryRate ?? null;
  return (
    <Card data-testid="comparison-card">
      <CardHeader>
        <CardTitle>Run comparison (baseline: {base!.run.name})</CardTitle>
        <p className="text-xs text-muted-foreground">
          Differences are against the baseline with 95% intervals: Newcombe&apos;s score interval for rates (rollouts treated as
          independent), a paired bootstrap over shared tasks (2,000 resamples, fixed seed) for pass@{comparison.k}. Bold = the interval
          excludes zero. Only the task-category filter applies here.
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Table aria-label="Runs overall">
          <TableHeader>
            <TableRow>
              <TableHead>Run</TableHead>
              <TableHead className="text-right">Tasks (shared)</TableHead>
              <TableHead className="text-right">Pass rate [95% CI]</TableHead>
              <TableHead className="text-right">Δ pass rate</TableHead>
              <TableHead className="text-right">pass@{comparison.k}</TableHead>
              <TableHead className="text-right">Δ pass@{comparison.k} (paired)</TableHead>
              <TableHead className="text-right">Recovery rate</TableHead>
              <TableHead className="text-right">Δ recovery rate</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {comparison.runs.map((r) => (
              <TableRow key={r.run.id} data-testid="comparison-row">
                <TableCell className="whitespace-normal">
                  <Link className="text-primary hover:underline" href={rolloutsHref(scope, r.run.id)}>
                    {r.run.name}
                  </Link>
                  <span className="block text-xs text-muted-foreground">
                    {[r.run.model, r.run.checkpoint, r.run.trainingMethod].filter(Boolean).join(" · ")}
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.tasks}
                  {r.vsBaseline ? ` (${r.vsBaseline.sharedTasks})` : ""}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  <Rate value={r.passRate} ci={r.passRateCi} unknown={r.unknown} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.vsBaseline ? r.vsBaseline.passRate ? <Diff d={r.vsBaseline.passRate} /> : "—" : "baseline"}
                </TableCell>
                <TableCell className="text-right tabular-nums">{pct(r.passAtK)}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.vsBaseline ? (
                    r.vsBaseline.sharedTasks ? (
                      r.vsBaseline.passAtK ? (
                        <Diff d={r.vsBaseline.passAtK} />
                      ) : (
                        "—"
                      )
                    ) : (
                      <span className="text-muted-foreground">no shared tasks</span>
                    )
                  ) : (
                    "baseline"
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  <Rate value={r.recovery.recoveryRate} ci={r.recovery.recoveryRateCi} unknown={r.recovery.unknownAttempts} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.vsBaseline ? r.vsBaseline.recoveryRate ? <Diff d={r.vsBaseline.recoveryRate} /> : "—" : "baseline"}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {categories.length ? (
          <Table aria-label="Recovery rate by error category and run">
            <TableHeader>
              <TableRow>
                <TableHead>Error category</TableHead>
                <TableHead className="text-right">{base!.run.name}</TableHead>
                {others.map((r) => (
                  <TableHead key={r.run.id} className="text-right">
                    {r.run.name} (Δ)
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {categories.map((cat) => (
                <TableRow key={cat ?? "none"}>
                  <TableCell>{categoryName(cat)}</TableCell>
                  <TableCell className="text-right tabular-nums">{pct(recoveryOf(0, cat)?.recoveryRate)}</TableCell>
                  {others.map((r, j) => (
                    <TableCell key={r.run.id} className="text-right tabular-nums">
                      <span className="inline-flex items-start gap-2">
                        {pct(recoveryOf(j + 1, cat)?.recoveryRate)}
                        {diffOf(j + 1, cat) ? (
                          <span className="text-muted-foreground">
                            (<Diff d={diffOf(j + 1, cat)} />)
                          </span>
                        ) : null}
                      </span>
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </CardContent>
    </Card>
  );
}
