import type { Metadata } from "next";
import Link from "next/link";
import { ListX } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getAnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import { compareFailureModes, listFailureModes } from "@/lib/services/failure-modes";
import { failureModesQueryFromUrl } from "@/lib/validation/failure-modes-params";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { FailureModeFilters } from "@/components/analytics/failure-modes/failure-mode-filters";
import { FailureModesTable } from "@/components/analytics/failure-modes/failure-modes-table";
import { FailureModeComparisonView } from "@/components/analytics/failure-modes/failure-mode-comparison";

export const metadata: Metadata = { title: "Failure modes" };

export default async function FailureModesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await getPageContext();
  const query = failureModesQueryFromUrl(await searchParams);
  const [options, list, comparison] = await Promise.all([
    getAnalyticsOptions(ctx),
    listFailureModes(ctx, query.filter, { limit: query.limit }),
    query.compare ? compareFailureModes(ctx, query.filter, query.compare, query.limit) : Promise.resolve(null),
  ]);
  const runName = new Map(options.runId.map((o) => [o.value, o.label]));
  const label = (v: string) => (query.compare?.by === "run" ? (runName.get(v) ?? v) : `checkpoint ${v}`);
  return (
    <>
      <PageHeader
        title="Failure modes"
        description={
          <>
            What breaks across the filtered trajectories: each failing step&apos;s decisive output line, with paths, numbers and names
            abstracted, ranked by trajectories affected. Categories are suggestions.{" "}
            <Link href="/analytics" className="text-primary hover:underline">
              Back to analytics
            </Link>
          </>
        }
      />
      <FailureModeFilters options={options} query={query} />
      <div className="flex flex-col gap-5">
        {comparison && query.compare ? (
          <FailureModeComparisonView
            comparison={comparison}
            baselineLabel={label(query.compare.baseline)}
            comparedLabel={label(query.compare.compared)}
            filter={query.filter}
          />
        ) : null}
        {list.modes.length === 0 ? (
          <EmptyState title={list.needsReindex ? "Failure signatures not computed yet" : "No failure modes here"} icon={<ListX />}>
            {list.needsReindex ? (
              <>
                This database was imported before failure signatures existed: run <code>npm run reterm -- reindex-failure-modes</code>.
              </>
            ) : (
              "No step in the filtered trajectories shows an error the detector recognises."
            )}
          </EmptyState>
        ) : (
          <section className="flex flex-col gap-2" aria-labelledby="fm-heading">
            <h2 id="fm-heading" className="text-lg font-semibold">
              {list.totalModes} modes{" "}
              <span className="text-sm font-normal text-muted-foreground">
                over {list.failedTrajectories} failed trajectories
                {list.totalModes > list.modes.length ? ` · top ${list.modes.length} shown` : ""}
              </span>
            </h2>
            <FailureModesTable modes={list.modes} filter={query.filter} />
          </section>
        )}
      </div>
    </>
  );
}
