import type { Metadata } from "next";
import { ListChecks } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { listTasks, type GroupSummary } from "@/lib/services/browse/browse-catalog";
import { GroupSummaryTable, NameCell, outcomeColumns, type SummaryColumn } from "@/components/trajectories/group-summary-table";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import Link from "next/link";

export const metadata: Metadata = { title: "Tasks" };

const columns: SummaryColumn<GroupSummary>[] = [
  { label: "Task", render: (r) => <NameCell href={`/tasks/${r.id}`} name={r.name} detail={r.detail} /> },
  ...outcomeColumns<GroupSummary>(),
  {
    label: "Trajectories",
    align: "right",
    render: (r) => (
      <Link className="text-primary hover:underline" href={`/trajectories?taskId=${r.id}`}>
        Browse
      </Link>
    ),
  },
];

export default async function TasksPage() {
  const rows = await listTasks(await getPageContext(PAGE_PERMISSIONS["/tasks"]));
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Benchmark tasks and how often their original rollouts pass (recovery attempts are counted separately). Open a task for pass@k by run."
      />
      {rows.length ? (
        <GroupSummaryTable rows={rows} columns={columns} label="Tasks" testId="task-row" />
      ) : (
        <EmptyState title="No tasks yet" icon={<ListChecks />}>
          Tasks appear when trajectories are imported.
        </EmptyState>
      )}
    </>
  );
}
