import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense, type ReactNode } from "react";
import { ChevronLeft } from "lucide-react";
import { z } from "zod";
import { getPageContext } from "@/lib/services/page-context";
import { getForkTree, getTrajectory } from "@/lib/services/browse/view-trajectory";
import { getReplayOpening, getTestReport } from "@/lib/services/replay";
import { replayLinkSchema } from "@/lib/domain/replay/player-options";
import { isAppError } from "@/lib/errors";
import { TrajectorySummary } from "@/components/trajectories/trajectory-summary";
import { ImportWarningsPanel } from "@/components/trajectories/import-warnings";
import { replayFactsOf } from "@/components/replay/replay-facts";
import { ReplaySection } from "@/components/replay/replay-section";
import { ReplaySkeleton } from "@/components/replay/replay-skeleton";
import { ReplayErrorBoundary } from "@/components/replay/replay-error-boundary";
import { ForkTree } from "@/components/replay/fork-tree";
import { VerifierPanel } from "@/components/replay/verifier-panel";
import { Transcript } from "@/components/steps/transcript";
import { TRANSCRIPT_PAGE } from "@/components/steps/transcript-page";
import { LabellingSection } from "@/components/annotation/labelling-section";

export const metadata: Metadata = { title: "Trajectory" };

/** Renders its children once the replay's opening data is there (or has failed), so they stream after it. */
async function AfterOpening({ opening, children }: { opening: Promise<unknown>; children: ReactNode }) {
  await opening.catch(() => null);
  return children;
}

const pageSchema = z.object({
  from: z.coerce.number().int().nonnegative().optional().catch(undefined),
  slot: z.string().max(100).optional().catch(undefined),
});

export default async function TrajectoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id: requested } = await params;
  const query = await searchParams;
  const link = replayLinkSchema.parse(query);
  const ctx = await getPageContext();
  // The replay's opening is read beside the trajectory, not after it: the page's first bytes (and the opening
  // screen in them) wait for both. A URL naming the trajectory by its client id reads it again below.
  const early = getReplayOpening(ctx, requested, link);
  early.catch(() => undefined);
  const t = await getTrajectory(ctx, requested).catch((e: unknown) => (isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e)));
  if (!t) notFound();
  const id = t.id; // the URL may name the trajectory by its client id
  // The transcript page holds the deep-linked step unless a page was asked for explicitly.
  const from = pageSchema.parse(query).from ?? (link.step !== undefined ? link.step - (link.step % TRANSCRIPT_PAGE) : 0);
  const facts = replayFactsOf(t);
  // Only what the first frame needs comes with the HTML; the step list and transcript load in ranges.
  const opening = id === requested ? early : getReplayOpening(ctx, id, link);
  // The test report scans every output: it starts after the replay's first frame has been served.
  const tests = opening.catch(() => null).then(() => getTestReport(ctx, id, { deferMs: 1000 }));
  return (
    // The header and facts stay compact, and the replay caps its terminal to the viewport (replay-view.tsx): the
    // terminal, its timeline and its controls are in the first screen; labels, tests and the transcript follow.
    <div className="flex flex-col gap-3">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
        <Link
          href="/trajectories"
          prefetch={false}
          className="inline-flex items-center gap-1 self-center text-sm text-muted-foreground hover:text-foreground"
        >
          <ChevronLeft className="size-4" aria-hidden /> Trajectories
        </Link>
        <h1 className="min-w-0 text-xl font-semibold tracking-tight break-words">{t.task.name}</h1>
        <p className="text-sm text-muted-foreground">{`${t.task.benchmark} · ${t.task.category ?? "uncategorized"}${t.task.difficulty ? ` · ${t.task.difficulty}` : ""}`}</p>
      </header>
      <TrajectorySummary t={t} />
      <ReplayErrorBoundary>
        {/* No Suspense boundary of its own (and no loading.tsx on this route): the replay comes in the page's first
            bytes, not streamed after them — React reveals a streamed boundary at least 300 ms after the first paint,
            and the opening screen stayed hidden that long after it had arrived. The opening is bounded (poster.ts). */}
        <ReplaySection key={id} opening={opening} facts={facts} />
      </ReplayErrorBoundary>
      <ImportWarningsPanel t={t} />
      <Suspense fallback={<ReplaySkeleton compact />}>
        {/* After the replay's opening: a long trajectory's labelling panel (hundreds of suggestions) is most of the
            HTML, and streamed first it delayed the replay's first frame. */}
        <AfterOpening opening={opening}>
          <LabellingSection
            ctx={ctx}
            trajectoryId={id}
            stepCount={t.stepCount}
            forkSteps={t.forkPoints.map((f) => f.stepIndex)}
            slotId={pageSchema.parse(query).slot}
          />
        </AfterOpening>
      </Suspense>
      <div className="grid gap-4 lg:grid-cols-2">
        <Suspense fallback={<ReplaySkeleton compact />}>
          <VerifierPanel report={tests} trajectoryId={id} />
        </Suspense>
        {t.parent || t.forkPoints.length ? (
          <Suspense fallback={<ReplaySkeleton compact />}>
            <ForkTree tree={getForkTree(ctx, id)} currentId={id} />
          </Suspense>
        ) : null}
      </div>
      <Transcript
        key={`${id}:${from}`}
        trajectoryId={id}
        from={from}
        total={t.stepCount}
        forkSteps={t.forkPoints.map((f) => f.stepIndex)}
      />
    </div>
  );
}
