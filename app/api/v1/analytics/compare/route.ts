// GET /api/v1/analytics/compare?compare=<runId>&compare=<runId>[&k=1][&category=…] — runs against the first, with 95% intervals
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { runComparisonSchema } from "@/lib/validation/analytics-params";
import { compareRuns } from "@/lib/services/analytics/compare-runs";

export const GET = route(
  async (req, ctx) => {
    const { compare, k, ...filter } = runComparisonSchema.parse(paramsFromSearch(req.nextUrl.searchParams));
    return NextResponse.json(await compareRuns(ctx, compare, k, filter));
  },
  { permission: "trajectory:read" },
);
