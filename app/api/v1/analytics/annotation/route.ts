// GET /api/v1/analytics/annotation?period=day|week&runId=&model=&checkpoint=&method=&category= — labels per period and
// schema, queue items completed per period, agreement per schema over time (null without annotation:adjudicate)
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { analyticsFilterSchema } from "@/lib/validation/analytics-params";
import { getAnnotationAnalytics, periodSchema } from "@/lib/services/analytics/get-annotation-analytics";

const querySchema = analyticsFilterSchema.extend({ period: periodSchema });

export const GET = route(
  async (req, ctx) => {
    const { period, ...filter } = querySchema.parse(paramsFromSearch(req.nextUrl.searchParams));
    const a = await getAnnotationAnalytics(ctx, filter, period);
    return NextResponse.json({ period: a.period, periods: a.periods, labels: a.labels, completed: a.completed, agreement: a.agreement });
  },
  { permission: "trajectory:read" },
);
