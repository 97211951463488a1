// GET /api/v1/jobs/:id — one background job: state, progress, attempts, worker, error, result.
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { getBackgroundJob } from "@/lib/services/jobs/list-jobs";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_req, ctx, { id }) => NextResponse.json(await getBackgroundJob(ctx, id)), {
  permission: "jobs:read",
});
