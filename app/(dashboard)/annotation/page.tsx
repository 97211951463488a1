import type { Metadata } from "next";
import Link from "next/link";
import { Tags } from "lucide-react";
import { z } from "zod";
import { getPageContext } from "@/lib/services/page-context";
import { listQueueSummaries } from "@/lib/services/annotation/manage-queues";
import { listSchemas } from "@/lib/services/annotation/manage-schemas";
import { can, PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { QueueList } from "@/components/annotation/queue-list";
import { CreateQueueForm } from "@/components/annotation/create-queue-form";
import { getSuggestionPrecision } from "@/lib/services/annotation/suggestions/suggestion-precision";
import { SuggestionPrecisionTable } from "@/components/annotation/suggestion-precision-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Annotation" };

const querySchema = z.object({ filter: z.string().max(8000).optional().catch(undefined) });

export default async function AnnotationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await getPageContext(PAGE_PERMISSIONS["/annotation"]);
  const { filter } = querySchema.parse(await searchParams);
  const [queues, schemas, precision] = await Promise.all([
    listQueueSummaries(ctx),
    can(ctx.actor, "queue:manage") ? listSchemas(ctx) : null,
    getSuggestionPrecision(ctx),
  ]);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Annotation"
        description="Label where and why trajectories failed, and how good each recovery attempt is."
        actions={
          can(ctx.actor, "schema:write") ? (
            <Link href="/annotation/schemas" className="text-sm text-primary hover:underline">
              Label schemas
            </Link>
          ) : null
        }
      />
      {queues.length ? (
        <QueueList queues={queues} />
      ) : (
        <EmptyState title="No annotation queue yet" icon={<Tags />}>
          {schemas ? "Create one below from a trajectories-table filter." : "No queue is assigned to you yet."} You can also label any{" "}
          <Link className="text-primary hover:underline" href="/trajectories">
            trajectory
          </Link>{" "}
          directly, next to its replay.
        </EmptyState>
      )}
      <SuggestionPrecisionTable p={precision} />
      {schemas ? (
        <CreateQueueForm
          schemas={schemas.filter((s) => s.active).map((s) => ({ key: s.key, name: s.name }))}
          defaultFilter={filter ?? ""}
        />
      ) : null}
    </div>
  );
}
