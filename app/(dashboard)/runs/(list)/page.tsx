import type { Metadata } from "next";
import Link from "next/link";
import { Boxes } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { listRuns, type GroupSummary } from "@/lib/services/browse/browse-catalog";
import { GroupSummaryTable, NameCell, outcomeColumns, type SummaryColumn } from "@/components/trajectories/group-summary-table";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Runs" };

const columns: SummaryColumn<GroupSummary>[] = [
  { label: "Run", render: (r) => <NameCell href={`/runs/${r.id}`} name={r.name} detail={r.detail} /> },
  ...outcomeColumns<GroupSummary>(),
  {
    label: "Trajectories",
    align: "right",
    render: (r) => (
      <Link className="text-primary hover:underline" href={`/trajectories?runId=${r.id}`}>
        Browse
      </Link>
    ),
  },
];

export default async function RunsPage() {
  const rows = await listRuns(await getPageContext(PAGE_PERMISSIONS["/runs"]));
  return (
    <>
      <PageHeader
        title="Runs"
        description="Batches of rollouts (model, checkpoint, training method) with pass rates of their original rollouts. Open a run for its error mix."
      />
      {rows.length ? (
        <GroupSummaryTable rows={rows} columns={columns} label="Runs" testId="run-row" />
      ) : (
        <EmptyState title="No runs yet" icon={<Boxes />}>
          Runs appear when trajectories are imported.
        </EmptyState>
      )}
    </>
  );
}
