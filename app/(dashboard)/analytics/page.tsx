import type { Metadata } from "next";
import { Suspense } from "react";
import Link from "next/link";
import { BarChart3, ListX } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { getAnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import { forOneRender } from "@/lib/services/analytics/render-memo";
import { periodSchema } from "@/lib/services/analytics/get-annotation-analytics";
import { analyticsFilterFromUrl, comparedRunsFromUrl } from "@/lib/validation/analytics-params";
import { firstValues } from "@/lib/validation/search-params";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { AnalyticsFilters } from "@/components/analytics/analytics-filters";
import {
  AnnotationBlock,
  ComparisonBlock,
  CountsBlock,
  DistributionsBlock,
  ProgressBlock,
  RecoveryBlock,
  TaskHealthBlock,
} from "./sections";

export const metadata: Metadata = { title: "Analytics" };

/** Placeholder while a section's figures load (each section streams in on its own). */
function Loading({ title }: { title: string }) {
  return (
    <section aria-busy="true" className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="h-40 animate-pulse rounded-lg border bg-muted/40" role="status" aria-label={`Loading ${title.toLowerCase()}`} />
    </section>
  );
}

export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // One context for this render: sections that need the same figures (runs, run × task counts) share one query.
  const ctx = forOneRender(await getPageContext(PAGE_PERMISSIONS["/analytics"]));
  const params = await searchParams;
  const filter = analyticsFilterFromUrl(params);
  const compare = comparedRunsFromUrl(params);
  const period = periodSchema.catch("week").parse(firstValues(params).period);
  // The filter options (two small queries) are all the first paint waits for; every section streams in after.
  const options = await getAnalyticsOptions(ctx);
  const urlParams = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) urlParams.append(k, x);
  return (
    <>
      <PageHeader
        title="Analytics"
        description="Recovery by error category, training progress, run comparison, task health, distributions and annotation progress for the filtered runs. Every figure links to its trajectories."
        actions={
          <Link
            href="/analytics/failure-modes"
            className="inline-flex items-center gap-1.5 rounded-md border px-3 py-1.5 text-sm hover:bg-muted"
            data-testid="failure-modes-link"
          >
            <ListX className="size-4" aria-hidden /> Failure modes
          </Link>
        }
      />
      <AnalyticsFilters options={options} filter={filter} compare={compare} />
      {options.runId.length === 0 ? (
        // Every trajectory belongs to a run: no run, nothing imported.
        <EmptyState title="Nothing to analyse yet" icon={<BarChart3 />}>
          Import trajectories (or run <code>npm run reterm -- seed-demo</code>) to see analytics.
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-5">
          <Suspense fallback={<Loading title="Recovery by error category" />}>
            <RecoveryBlock ctx={ctx} filter={filter} />
          </Suspense>
          {compare.length >= 2 ? (
            <Suspense fallback={<Loading title="Run comparison" />}>
              <ComparisonBlock ctx={ctx} filter={filter} compare={compare} />
            </Suspense>
          ) : null}
          <Suspense fallback={<Loading title="Training progress" />}>
            <ProgressBlock ctx={ctx} filter={filter} />
          </Suspense>
          <Suspense fallback={<Loading title="Task health" />}>
            <TaskHealthBlock ctx={ctx} filter={filter} />
          </Suspense>
          <Suspense fallback={<Loading title="Distributions" />}>
            <DistributionsBlock ctx={ctx} filter={filter} />
          </Suspense>
          <Suspense fallback={<Loading title="Annotation progress and agreement" />}>
            <AnnotationBlock ctx={ctx} filter={filter} period={period} params={urlParams} />
          </Suspense>
          <Suspense fallback={<Loading title="Database" />}>
            <CountsBlock ctx={ctx} />
          </Suspense>
        </div>
      )}
    </>
  );
}
