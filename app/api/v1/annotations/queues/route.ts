// /api/v1/annotations/queues — GET the queues the caller may work on (with progress); POST creates one from a
// trajectories-table filter (the same service as the UI and `reterm queue create`).
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { readJsonBody } from "@/lib/http/body";
import { createQueue, listQueueSummaries } from "@/lib/services/annotation/manage-queues";

export const GET = route(async (_req, ctx) => NextResponse.json({ queues: await listQueueSummaries(ctx) }), {
  permission: "annotation:write",
});

export const POST = route(async (req, ctx) => NextResponse.json(await createQueue(ctx, await readJsonBody(req)), { status: 201 }), {
  permission: "queue:manage",
});
