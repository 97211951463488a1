import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { getPageContext } from "@/lib/services/page-context";
import { getAdjudication } from "@/lib/services/annotation/adjudicate";
import { listSchemas } from "@/lib/services/annotation/manage-schemas";
import { isAppError } from "@/lib/errors";
import { PageHeader } from "@/components/ui/page-header";
import { AdjudicationList } from "@/components/annotation/adjudication-list";

export const metadata: Metadata = { title: "Adjudicate" };

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await getPageContext("annotation:adjudicate");
  const data = await getAdjudication(ctx, id).catch((e: unknown) => (isAppError(e) && e.code === "NOT_FOUND" ? null : Promise.reject(e)));
  if (!data) notFound();
  const schemas = await listSchemas(ctx);
  return (
    <div className="flex flex-col gap-4">
      <Link href="/annotation" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden /> Annotation
      </Link>
      <PageHeader
        title="Adjudicate"
        description={
          <>
            Every label on this trajectory, side by side; disagreements first.{" "}
            <Link className="text-primary hover:underline" href={`/trajectories/${data.trajectoryId}`}>
              Open the replay
            </Link>
          </>
        }
      />
      <AdjudicationList trajectoryId={data.trajectoryId} targets={data.targets} schemas={schemas} />
    </div>
  );
}
