// POST /api/v1/annotations/queues/:id/submit — {slot, label: {trajectory, schema, value, target?, comment?, id?, version?}}:
// saves the label and, when that finishes the item, completes it and returns the next reservation (one round trip).
import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/http/route";
import { readJsonBody } from "@/lib/http/body";
import { submitQueueLabel } from "@/lib/services/annotation/work-queue";

const bodySchema = z.object({
  slot: z.string().min(1).max(100),
  label: z.object({
    id: z.string().max(100).optional(),
    version: z.number().int().positive().optional(),
    trajectory: z.string().max(200),
    schema: z.string().max(100),
    value: z.string().max(4000),
    target: z.unknown().optional(),
    comment: z.string().max(4000).nullish(),
  }),
});

export const POST = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const body = bodySchema.parse(await readJsonBody(req));
    const r = await submitQueueLabel(ctx, body.slot, body.label, { queue: id });
    return NextResponse.json(r, { status: 201 });
  },
  { permission: "annotation:write" },
);
