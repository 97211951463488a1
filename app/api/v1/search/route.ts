// GET /api/v1/search?q=&limit=&cursor= — steps whose command, output, reasoning or message match (ANSI escapes ignored), newest first, with highlighted snippets
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch, searchQuerySchema } from "@/lib/validation/search-params";
import { searchSteps } from "@/lib/services/browse/search-trajectories";

export const GET = route(
  async (req, ctx) => NextResponse.json(await searchSteps(ctx, searchQuerySchema.parse(paramsFromSearch(req.nextUrl.searchParams)))),
  { permission: "trajectory:read" },
);
