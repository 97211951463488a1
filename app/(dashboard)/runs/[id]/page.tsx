import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getRunDetail, type GroupSummary, type RunDetail } from "@/lib/services/browse/browse-catalog";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { formatCount, formatPercent } from "@/lib/format";
import { isAppError } from "@/lib/errors";
import { NO_ERROR } from "@/lib/validation/search-params";
import { GroupSummaryTable, NameCell, ShareBar, outcomeColumns, type SummaryColumn } from "@/components/trajectories/group-summary-table";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";

export const metadata: Metadata = { title: "Run" };

type MixRow = RunDetail["errorMix"][number] & { id: string };
/** Each error category links to exactly those rollouts in the trajectory browser. */
const mixColumns = (runId: string): SummaryColumn<MixRow>[] => [
  {
    label: "First error",
    render: (m) => (
      <Link className="hover:underline" href={`/trajectories?runId=${runId}&outcome=failed&attempt=no&error=${m.category ?? NO_ERROR}`}>
        {m.category ? errorCategoryLabel(m.category) : "No error found in the trace"}
      </Link>
    ),
  },
  { label: "Failed rollouts", align: "right", render: (m) => formatCount(m.count) },
  { label: "Share", align: "right", render: (m) => <ShareBar value={m.share} /> },
];
const taskColumns: SummaryColumn<GroupSummary>[] = [
  { label: "Task", render: (r) => <NameCell href={`/tasks/${r.id}`} name={r.name} detail={r.detail} /> },
  ...outcomeColumns<GroupSummary>(),
];

function Stat({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string | null }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-1">
        <span className="text-xs text-muted-foreground">{label}</span>
        <span className="text-2xl font-semibold tabular-nums" data-testid={testId}>
          {value}
        </span>
        {note ? (
          <span className="text-xs text-muted-foreground" data-testid={`${testId}-note`}>
            {note}
          </span>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const d = await getRunDetail(await getPageContext(), id).catch((e: unknown) =>
    isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e),
  );
  if (!d) notFound();
  const { run, figures, recovery } = d;
  const ci = (c: { lo: number; hi: number } | null) => (c ? `95% CI [${formatPercent(c.lo)}, ${formatPercent(c.hi)}]` : null);
  const joinNotes = (...xs: (string | null)[]) => xs.filter(Boolean).join(" · ") || null;
  const mix: MixRow[] = d.errorMix.map((m) => ({ ...m, id: m.category ?? "none" }));
  return (
    <div className="flex flex-col gap-5">
      <Link href="/runs" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden /> Runs
      </Link>
      <PageHeader
        title={run.name}
        description={[run.model, run.agent, run.checkpoint, run.trainingMethod, run.source].filter(Boolean).join(" · ")}
        actions={
          <Link className="text-sm text-primary hover:underline" href={`/trajectories?runId=${run.id}`}>
            Browse its trajectories
          </Link>
        }
      />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label="Pass rate (original rollouts of known outcome)"
          value={formatPercent(figures.passRate.rate)}
          testId="run-pass-rate"
          note={joinNotes(`${formatCount(figures.passed)} / ${formatCount(figures.passRate.n)}`, ci(figures.passRate.ci))}
        />
        <Stat
          label="Original rollouts"
          value={formatCount(figures.rollouts)}
          testId="run-rollouts"
          note={figures.unknown ? `${formatCount(figures.unknown)} unknown` : null}
        />
        <Stat
          label="Recovery attempts"
          value={formatCount(recovery.attempts)}
          testId="run-attempts"
          note={recovery.unknownAttempts ? `${formatCount(recovery.unknownAttempts)} unknown` : null}
        />
        <Stat
          label="Recovery rate (fork points recovered)"
          value={formatPercent(recovery.recoveryRate)}
          testId="run-recovery-rate"
          note={
            recovery.forkPoints
              ? joinNotes(
                  `${formatCount(recovery.recoveredForkPoints)} / ${formatCount(recovery.evaluatedForkPoints)}`,
                  ci(recovery.recoveryRateCi),
                )
              : null
          }
        />
      </div>
      <section className="flex flex-col gap-2" aria-labelledby="error-mix">
        <h2 id="error-mix" className="text-sm font-semibold">
          Error mix of failed rollouts
        </h2>
        {mix.length ? (
          <GroupSummaryTable rows={mix} columns={mixColumns(run.id)} label="Error mix" testId="error-mix-row" />
        ) : (
          <p className="text-sm text-muted-foreground">No failed rollouts in this run.</p>
        )}
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="by-task">
        <h2 id="by-task" className="text-sm font-semibold">
          Results by task
        </h2>
        <GroupSummaryTable rows={d.tasks} columns={taskColumns} label="Results by task" testId="run-task-row" />
      </section>
    </div>
  );
}
