import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ChevronLeft } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { compareAttempts, compareLinkSchema } from "@/lib/services/replay";
import { getReplayManifest } from "@/lib/services/replay";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import { isAppError } from "@/lib/errors";
import { PageHeader } from "@/components/ui/page-header";
import { AttemptPicker } from "@/components/replay/attempt-picker";
import { SharedPrefix } from "@/components/replay/shared-prefix";
import { SiblingCompareView } from "@/components/replay/sibling-compare-view";
import { CommandDiff } from "@/components/replay/command-diff";
import { ReplaySkeleton } from "@/components/replay/replay-skeleton";
import { AttemptRanking } from "@/components/annotation/attempt-ranking";
import { getRankingView } from "@/lib/services/annotation/attempt-ranking";

export const metadata: Metadata = { title: "Compare attempts" };

export default async function CompareAttemptsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const link = compareLinkSchema.parse(await searchParams);
  const ctx = await getPageContext();
  const cmp = await compareAttempts(ctx, id, link).catch((e: unknown) =>
    isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e),
  );
  if (!cmp) notFound();
  const ranking = cmp.available.length >= 2 ? await getRankingView(ctx, cmp.parentId, cmp.forkStepIndex) : null;
  return (
    <div className="flex flex-col gap-4">
      <Link
        href={`/trajectories/${cmp.parentId}`}
        className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ChevronLeft className="size-4" aria-hidden /> Parent trajectory
      </Link>
      <PageHeader
        title="Compare recovery attempts"
        description={`${cmp.taskName} · fork after step #${cmp.forkStepIndex}${cmp.errorCategory ? ` · ${errorCategoryLabel(cmp.errorCategory)}` : ""}`}
      />
      <AttemptPicker comparison={cmp} />
      {ranking ? (
        <AttemptRanking
          key={`${cmp.parentId}:${cmp.forkStepIndex}`}
          parentId={cmp.parentId}
          forkStep={cmp.forkStepIndex}
          attempts={cmp.available}
          view={ranking}
        />
      ) : null}
      <SharedPrefix parentId={cmp.parentId} steps={cmp.sharedPrefix} forkStepIndex={cmp.forkStepIndex} />
      <Suspense fallback={<ReplaySkeleton />}>
        <SiblingCompareView
          key={cmp.attempts.map((a) => a.id).join()}
          attempts={cmp.attempts}
          manifests={cmp.attempts.map((a) => getReplayManifest(ctx, a.id))}
          forkStepIndex={cmp.forkStepIndex}
        />
      </Suspense>
      <CommandDiff comparison={cmp} />
    </div>
  );
}
