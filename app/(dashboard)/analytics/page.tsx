import type { Metadata } from "next";
import { BarChart3 } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getStats } from "@/lib/services/get-stats";
import { getRecoveryAnalytics } from "@/lib/services/analytics/get-recovery-analytics";
import { getTrainingProgress } from "@/lib/services/analytics/get-training-progress";
import { getTaskHealth } from "@/lib/services/analytics/get-task-health";
import { getDistributions } from "@/lib/services/analytics/get-distributions";
import { compareRuns } from "@/lib/services/analytics/compare-runs";
import { getAnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import { analyticsFilterFromUrl, comparedRunsFromUrl } from "@/lib/validation/analytics-params";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { AnalyticsFilters } from "@/components/analytics/analytics-filters";
import { RecoverySection } from "@/components/analytics/recovery-section";
import { ProgressSection } from "@/components/analytics/progress-section";
import { ComparisonSection } from "@/components/analytics/comparison-section";
import { DistributionsSection } from "@/components/analytics/distributions-section";
import { TaskHealthSection } from "@/components/analytics/task-health-section";
import { DatabaseCounts } from "@/components/analytics/database-counts";

export const metadata: Metadata = { title: "Analytics" };

export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await getPageContext();
  const params = await searchParams;
  const filter = analyticsFilterFromUrl(params);
  const compare = comparedRunsFromUrl(params);
  const [stats, options, recovery, progress, health, distributions, comparison] = await Promise.all([
    getStats(ctx),
    getAnalyticsOptions(ctx),
    getRecoveryAnalytics(ctx, filter),
    getTrainingProgress(ctx, filter),
    getTaskHealth(ctx, filter),
    getDistributions(ctx, filter),
    // A stale or mistyped run id in the URL just leaves the comparison out.
    compare.length >= 2 ? compareRuns(ctx, compare, 1, filter).catch(() => null) : Promise.resolve(null),
  ]);
  return (
    <>
      <PageHeader title="Analytics" description="Recovery by error category, training progress, run comparison, task health and distributions for the filtered runs. Every figure links to its trajectories." />
      <AnalyticsFilters options={options} filter={filter} compare={compare} />
      {stats.trajectories === 0 ? (
        <EmptyState title="Nothing to analyse yet" icon={<BarChart3 />}>Import trajectories (or run <code>npm run reterm -- seed-demo</code>) to see analytics.</EmptyState>
      ) : (
        <div className="flex flex-col gap-5">
          <RecoverySection report={recovery} />
          {comparison ? <ComparisonSection comparison={comparison} scope={recovery} /> : null}
          <ProgressSection series={progress.series} ks={progress.ks} scope={recovery} />
          <TaskHealthSection report={health} scope={recovery} />
          <DistributionsSection report={distributions} />
          <DatabaseCounts stats={stats} />
        </div>
      )}
    </>
  );
}
