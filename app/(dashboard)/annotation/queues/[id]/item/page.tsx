// One queue item on one screen: the replay seeked to the label's target (the fork point, the first error step) with
// the step list around it, and the labelling panel beside it. Moving on is a client navigation to the next item,
// which the page reserved and the browser fetched while this one was labelled.
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { getPageContext } from "@/lib/services/page-context";
import { openQueue } from "@/lib/services/annotation/manage-queues";
import { openQueueItem } from "@/lib/services/annotation/work-queue";
import { getLabellingView } from "@/lib/services/annotation/labelling-view";
import { getTrajectory } from "@/lib/services/browse/view-trajectory";
import { getReplayOpening } from "@/lib/services/replay";
import { isAppError } from "@/lib/errors";
import { ReplaySection } from "@/components/replay/replay-section";
import { ReplayErrorBoundary } from "@/components/replay/replay-error-boundary";
import { replayFactsOf } from "@/components/replay/replay-facts";
import { QueueItemShell } from "@/components/annotation/queue-item/queue-item-shell";

export const metadata: Metadata = { title: "Queue item" };

const querySchema = z.object({ slot: z.string().min(1).max(100).optional().catch(undefined) });

export default async function QueueItemPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const { slot: slotId } = querySchema.parse(await searchParams);
  const ctx = await getPageContext("annotation:write");
  const queue = await openQueue(ctx, id).catch((e: unknown) => (isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e)));
  if (!queue) notFound();
  // Not (or no longer) this annotator's reservation: the queue page, whose button asks for the next item.
  const slot = slotId ? await openQueueItem(ctx, queue.id, slotId) : null;
  if (!slot) redirect(`/annotation/queues/${encodeURIComponent(queue.id)}`);
  const [t, view] = await Promise.all([
    getTrajectory(ctx, slot.trajectoryId),
    getLabellingView(ctx, slot.trajectoryId, { slotId: slot.slotId }),
  ]);
  // The replay opens at the first queue schema's target (the fork point, the error step), not at t = 0.
  const first = view.schemas.find((s) => queue.schemaKeys.includes(s.key)) ?? view.schemas[0];
  const step = first ? view.defaults[first.id]?.step : null;
  const opening = getReplayOpening(ctx, t.id, step != null ? { step } : {});
  return (
    <QueueItemShell
      key={slot.slotId}
      queueId={queue.id}
      slotId={slot.slotId}
      header={{
        queueName: queue.name,
        task: t.task.name,
        outcome: t.outcome,
        trajectoryId: t.id,
        stepCount: t.stepCount,
        reservationMinutes: queue.reservationMinutes,
      }}
      panel={{ trajectoryId: t.id, stepCount: t.stepCount, forkSteps: t.forkPoints.map((f) => f.stepIndex), view }}
    >
      <ReplayErrorBoundary>
        <ReplaySection key={t.id} opening={opening} facts={replayFactsOf(t)} />
      </ReplayErrorBoundary>
    </QueueItemShell>
  );
}
