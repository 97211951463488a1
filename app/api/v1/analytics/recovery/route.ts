// GET /api/v1/analytics/recovery?runId=&model=&checkpoint=&method=&category= — recovery per fork-point error category
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { analyticsFilterSchema } from "@/lib/validation/analytics-params";
import { getRecoveryAnalytics } from "@/lib/services/analytics/get-recovery-analytics";

export const GET = route(
  async (req, ctx) => {
    const { categories, overall } = await getRecoveryAnalytics(
      ctx,
      analyticsFilterSchema.parse(paramsFromSearch(req.nextUrl.searchParams)),
    );
    return NextResponse.json({ categories, overall });
  },
  { permission: "trajectory:read" },
);
