import type { Metadata } from "next";
import { PlayCircle } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getTrajectoryFacets, listTrajectories } from "@/lib/services/browse/browse-trajectories";
import { hasFilters, trajectoryListUrlSchema } from "@/lib/validation/search-params";
import { TrajectoriesTable } from "@/components/trajectories/trajectories-table";
import { CreateDatasetForm } from "@/components/datasets/create-dataset-form";
import { datasetFilterOf } from "@/lib/services/curation/rules";
import { can, PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Code } from "@/components/ui/code";

export const metadata: Metadata = { title: "Trajectories" };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = trajectoryListUrlSchema.parse(await searchParams);
  const ctx = await getPageContext(PAGE_PERMISSIONS["/trajectories"]);
  // The facets stream after the rows (the table shows them when they arrive), started together so both run at once.
  const facets = getTrajectoryFacets(ctx, query);
  // Handled here too: a page that renders no table (no trajectories yet) never consumes them.
  facets.catch(() => undefined);
  const list = await listTrajectories(ctx, query);
  return (
    <>
      <PageHeader
        title="Trajectories"
        description={
          <>
            Every imported rollout. Filter, search commands and outputs, and open one to replay it. Keys: <kbd>/</kbd> search, <kbd>j</kbd>/
            <kbd>k</kbd> move, <kbd>Enter</kbd> open, <kbd>x</kbd> select.
          </>
        }
      />
      {list.total === 0 && !hasFilters(query) ? (
        <EmptyState title="No trajectories yet" icon={<PlayCircle />}>
          Import some with <Code>npm run reterm -- import path/to/runs</Code> or load demo data with{" "}
          <Code>npm run reterm -- seed-demo</Code>.
        </EmptyState>
      ) : (
        <>
          {can(ctx.actor, "dataset:write") ? (
            <div className="mb-3 flex justify-end">
              <CreateDatasetForm filter={datasetFilterOf(query)} matching={list.total} matchingCapped={list.totalCapped} />
            </div>
          ) : null}
          <TrajectoriesTable list={list} facets={facets} canCreateDataset={can(ctx.actor, "dataset:write")} />
        </>
      )}
    </>
  );
}
