import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getQueueOverview } from "@/lib/services/annotation/manage-queues";
import { computeQueueAgreement } from "@/lib/services/annotation/compute-agreement";
import { can } from "@/lib/domain/authz";
import { isAppError } from "@/lib/errors";
import { PageHeader } from "@/components/ui/page-header";
import { QueueProgressCard } from "@/components/annotation/queue-progress-card";
import { AgreementCard } from "@/components/annotation/agreement-card";
import { StartQueueButton } from "@/components/annotation/start-queue-button";
import { StepZeroReview } from "@/components/annotation/step-zero-review";

export const metadata: Metadata = { title: "Annotation queue" };

export default async function QueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = await searchParams;
  const finished = query.finished === "1";
  const ctx = await getPageContext("annotation:write");
  const overview = await getQueueOverview(ctx, id).catch((e: unknown) =>
    isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e),
  );
  if (!overview) notFound();
  const { queue } = overview;
  // Agreement puts everyone's labels side by side: reviewers only (blind mode holds for annotators).
  const agreement = can(ctx.actor, "annotation:adjudicate") ? await computeQueueAgreement(ctx, queue) : null;
  return (
    <div className="flex flex-col gap-4">
      <Link href="/annotation" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden /> Annotation
      </Link>
      <PageHeader
        title={queue.name}
        description={`${queue.itemCount} item(s) × ${queue.labelsPerItem} label(s) · ${queue.schemaKeys.join(", ")} · ${queue.blind ? "blind" : "labels visible to co-annotators"} · reservations expire after ${queue.reservationMinutes} min idle`}
        actions={<StartQueueButton queueId={queue.id} label={finished ? "Check for more" : "Start labelling"} ahead />}
      />
      {finished ? (
        <p role="status" className="rounded-md border bg-muted/40 p-3 text-sm">
          Nothing more in this queue for you right now — thank you.
        </p>
      ) : null}
      <StepZeroReview queueId={queue.id} labels={overview.stepZero} open={query.review === "step0"} />
      <QueueProgressCard overview={overview} />
      {agreement ? (
        <div className="grid gap-4 xl:grid-cols-2">
          {agreement.map((a) => (
            <AgreementCard key={a.schema} a={a} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
