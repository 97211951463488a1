// POST /api/v1/annotations/queues/:id/next — the caller's next item (their live reservation if they hold one);
// 204 when the queue holds nothing more for them.
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { nextQueueItem } from "@/lib/services/annotation/work-queue";

export const POST = route<{ id: string }>(
  async (_req, ctx, { id }) => {
    const slot = await nextQueueItem(ctx, id);
    return slot ? NextResponse.json(slot) : new NextResponse(null, { status: 204 });
  },
  { permission: "annotation:write" },
);
