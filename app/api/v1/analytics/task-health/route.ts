// GET /api/v1/analytics/task-health?runId=&model=&checkpoint=&method=&category= — tasks never/always passed, persistent failures, invalid, reward anomalies
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { analyticsFilterSchema } from "@/lib/validation/analytics-params";
import { getTaskHealth } from "@/lib/services/analytics/get-task-health";

export const GET = route(
  async (req, ctx) => NextResponse.json(await getTaskHealth(ctx, analyticsFilterSchema.parse(paramsFromSearch(req.nextUrl.searchParams)))),
  { permission: "trajectory:read" },
);
