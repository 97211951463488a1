import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { JobsTable } from "@/components/jobs/jobs-table";
import { RefreshWhileBusy } from "@/components/jobs/refresh-while-busy";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { listBackgroundJobs } from "@/lib/services/jobs/list-jobs";

export const metadata: Metadata = { title: "Background jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  const ctx = await getPageContext(PAGE_PERMISSIONS["/admin/jobs"]);
  const { jobs, counts } = await listBackgroundJobs(ctx, { limit: 200 });
  return (
    <>
      <PageHeader
        title="Background jobs"
        description="Exports, storing a frozen version's exports, laying out and search-indexing uploaded trajectories and the retention sweep run as jobs, on this server or on workers (npm run worker). A job whose worker stops is picked up by another. Latest 200 shown."
      />
      <p className="mb-3 text-sm text-muted-foreground" data-testid="job-counts">
        {counts.queued} queued · {counts.running} running · {counts.succeeded} succeeded · {counts.failed} failed
      </p>
      <RefreshWhileBusy busy={counts.queued + counts.running > 0} />
      <Card>
        <CardContent className="p-0">
          <JobsTable jobs={jobs} />
        </CardContent>
      </Card>
    </>
  );
}
