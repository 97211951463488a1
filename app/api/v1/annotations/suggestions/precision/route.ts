// GET /api/v1/annotations/suggestions/precision?source=detector&schema=error-category — the detector's (or an
// imported source's) precision per category against annotators' accept/change/reject decisions.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { getSuggestionPrecision } from "@/lib/services/annotation/suggestions/suggestion-precision";

export const GET = route(async (req, ctx) => NextResponse.json(await getSuggestionPrecision(ctx, queryObject(req))), {
  permission: "trajectory:read",
});
