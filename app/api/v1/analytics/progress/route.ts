// GET /api/v1/analytics/progress?runId=&model=&checkpoint=&method=&category= — pass@k by checkpoint per model and method
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { analyticsFilterSchema } from "@/lib/validation/analytics-params";
import { getTrainingProgress } from "@/lib/services/analytics/get-training-progress";

export const GET = route(
  async (req, ctx) =>
    NextResponse.json(await getTrainingProgress(ctx, analyticsFilterSchema.parse(paramsFromSearch(req.nextUrl.searchParams)))),
  { permission: "trajectory:read" },
);
