// GET /api/v1/analytics/distributions?runId=&model=&checkpoint=&method=&category= — length, first-error step,
// attempts to recover and sibling-group reward distributions
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { analyticsFilterSchema } from "@/lib/validation/analytics-params";
import { getDistributions } from "@/lib/services/analytics/get-distributions";

export const GET = route(
  async (req, ctx) => {
    const d = await getDistributions(ctx, analyticsFilterSchema.parse(paramsFromSearch(req.nextUrl.searchParams)));
    return NextResponse.json({
      length: d.length,
      firstError: d.firstError,
      withoutError: d.withoutError,
      attemptsToRecover: d.attemptsToRecover,
      siblingReward: d.siblingReward,
    });
  },
  { permission: "trajectory:read" },
);
