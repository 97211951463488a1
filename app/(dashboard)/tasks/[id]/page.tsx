import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getTaskDetail, PASS_AT, type TaskDetail } from "@/lib/services/browse/browse-catalog";
import { getTrajectoryFacets, listTrajectories } from "@/lib/services/browse/browse-trajectories";
import { trajectoryListUrlSchema } from "@/lib/validation/search-params";
import { isAppError } from "@/lib/errors";
import { GroupSummaryTable, NameCell, ShareBar, outcomeColumns, type SummaryColumn } from "@/components/trajectories/group-summary-table";
import { TrajectoriesTable } from "@/components/trajectories/trajectories-table";
import { can } from "@/lib/domain/authz";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";

export const metadata: Metadata = { title: "Task" };

type RunRow = TaskDetail["runs"][number];
// The pass@k columns: the domain's estimator over the run's known-outcome rollouts of this task.
const [rollouts, passed, , attempts, recovered] = outcomeColumns<RunRow>();
const columns: SummaryColumn<RunRow>[] = [
  { label: "Run", render: (r) => <NameCell href={`/runs/${r.id}`} name={r.name} detail={r.detail} /> },
  rollouts!,
  passed!,
  ...PASS_AT.map((k): SummaryColumn<RunRow> => ({
    label: `pass@${k}`,
    align: "right",
    render: (r) => <ShareBar value={r.figures.passAtK[`${k}`]} />,
  })),
  attempts!,
  recovered!,
];

export default async function TaskPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const ctx = await getPageContext();
  const detail = await getTaskDetail(ctx, id).catch((e: unknown) => (isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e)));
  if (!detail) notFound();
  const query = { ...trajectoryListUrlSchema.parse(await searchParams), taskId: [id] };
  // The facets stream after the rows (the table shows them when they arrive), started together so both run at once.
  const facets = getTrajectoryFacets(ctx, query);
  // Handled here too: a page that renders no table (no trajectories yet) never consumes them.
  facets.catch(() => undefined);
  const list = await listTrajectories(ctx, query);
  const { task } = detail;
  return (
    <div className="flex flex-col gap-5">
      <Link href="/tasks" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden /> Tasks
      </Link>
      <PageHeader
        title={task.name}
        description={[task.benchmark, task.externalId, task.category, task.difficulty].filter(Boolean).join(" · ")}
      />
      {task.instruction ? (
        <Card>
          <CardContent className="text-sm whitespace-pre-wrap">{task.instruction}</CardContent>
        </Card>
      ) : null}
      <section className="flex flex-col gap-2" aria-labelledby="by-run">
        <h2 id="by-run" className="text-sm font-semibold">
          Pass@k by run
        </h2>
        <p className="text-xs text-muted-foreground">
          Unbiased pass@k over each run&apos;s original rollouts of this task with a known outcome (unknown outcomes are counted under the
          pass rate, never as failures); recovery attempts are listed separately. — means fewer than k rollouts of known outcome.
        </p>
        <GroupSummaryTable rows={detail.runs} columns={columns} label="Pass@k by run" testId="pass-at-k-row" />
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="all-trajectories">
        <h2 id="all-trajectories" className="text-sm font-semibold">
          Every trajectory of this task
        </h2>
        <TrajectoriesTable list={list} facets={facets} locked={{ taskId: [id] }} canCreateDataset={can(ctx.actor, "dataset:write")} />
      </section>
    </div>
  );
}
