// GET /api/v1/annotations/queues/:id — one queue (id or name): progress, step-0 labels to review, and agreement for
// reviewers (blind mode holds for annotators).
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { getQueueOverview } from "@/lib/services/annotation/manage-queues";
import { computeQueueAgreement } from "@/lib/services/annotation/compute-agreement";
import { can } from "@/lib/domain/authz";

export const GET = route<{ id: string }>(
  async (_req, ctx, { id }) => {
    const o = await getQueueOverview(ctx, id);
    const agreement = can(ctx.actor, "annotation:adjudicate") ? await computeQueueAgreement(ctx, o.queue) : null;
    return NextResponse.json({ ...o, agreement });
  },
  { permission: "annotation:write" },
);
