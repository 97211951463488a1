// The analytics page's sections as async server components, each fetching its own figures, so the page streams them
// in as they are ready (each in a Suspense boundary) instead of waiting for the slowest query.
import type { ServiceContext } from "@/lib/services/context";
import { getStats } from "@/lib/services/browse/get-stats";
import { getRecoveryAnalytics } from "@/lib/services/analytics/get-recovery-analytics";
import { getTrainingProgress } from "@/lib/services/analytics/get-training-progress";
import { getTaskHealth } from "@/lib/services/analytics/get-task-health";
import { getDistributions } from "@/lib/services/analytics/get-distributions";
import { getAnnotationAnalytics, type Period } from "@/lib/services/analytics/get-annotation-analytics";
import { compareRuns } from "@/lib/services/analytics/compare-runs";
import { getDrillScope } from "@/lib/services/analytics/drill-runs";
import type { AnalyticsFilter } from "@/lib/validation/analytics-params";
import { RecoverySection } from "@/components/analytics/recovery-section";
import { ProgressSection } from "@/components/analytics/progress-section";
import { ComparisonSection } from "@/components/analytics/comparison-section";
import { DistributionsSection } from "@/components/analytics/distributions-section";
import { TaskHealthSection } from "@/components/analytics/task-health-section";
import { AnnotationSection } from "@/components/analytics/annotation-section";
import { DatabaseCounts } from "@/components/analytics/database-counts";

interface Props {
  ctx: ServiceContext;
  filter: AnalyticsFilter;
}

export async function RecoveryBlock({ ctx, filter }: Props) {
  return <RecoverySection report={await getRecoveryAnalytics(ctx, filter)} />;
}

export async function ComparisonBlock({ ctx, filter, compare }: Props & { compare: string[] }) {
  // A stale or mistyped run id in the URL just leaves the comparison out.
  const [comparison, scope] = await Promise.all([compareRuns(ctx, compare, 1, filter).catch(() => null), getDrillScope(ctx, filter)]);
  return comparison ? <ComparisonSection comparison={comparison} scope={scope} /> : null;
}

export async function ProgressBlock({ ctx, filter }: Props) {
  const [progress, scope] = await Promise.all([getTrainingProgress(ctx, filter), getDrillScope(ctx, filter)]);
  return <ProgressSection series={progress.series} ks={progress.ks} scope={scope} />;
}

export async function TaskHealthBlock({ ctx, filter }: Props) {
  const [health, scope] = await Promise.all([getTaskHealth(ctx, filter), getDrillScope(ctx, filter)]);
  return <TaskHealthSection report={health} scope={scope} />;
}

export async function DistributionsBlock({ ctx, filter }: Props) {
  return <DistributionsSection report={await getDistributions(ctx, filter)} />;
}

export async function AnnotationBlock({ ctx, filter, period, params }: Props & { period: Period; params: URLSearchParams }) {
  const periodHref = (p: Period) => {
    const q = new URLSearchParams(params);
    q.set("period", p);
    return `/analytics?${q}#annotation-heading`;
  };
  return <AnnotationSection report={await getAnnotationAnalytics(ctx, filter, period)} periodHref={periodHref} />;
}

export async function CountsBlock({ ctx }: { ctx: ServiceContext }) {
  return <DatabaseCounts stats={await getStats(ctx)} />;
}
