// GET /api/v1/jobs — recent background jobs (exports, storing a frozen version's exports, retention), newest first:
// ?state=queued|running|succeeded|failed&limit=N (≤ 500). Answers {jobs, counts}.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { listBackgroundJobs } from "@/lib/services/jobs/list-jobs";

export const dynamic = "force-dynamic";

export const GET = route(async (req, ctx) => NextResponse.json(await listBackgroundJobs(ctx, queryObject(req))), {
  permission: "jobs:read",
});
