// GET /api/v1/analytics/failure-modes[?runId=…&model=…&checkpoint=…&taskId=…&from=YYYY-MM-DD&to=…&limit=50]
//   [&compareBy=run|checkpoint&baseline=…&compared=…] — failure modes ranked by trajectories affected, or compared
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { paramsFromSearch } from "@/lib/validation/search-params";
import { failureModesQueryFrom, failureModesQuerySchema } from "@/lib/validation/failure-modes-params";
import { compareFailureModes, listFailureModes } from "@/lib/services/failure-modes";

export const GET = route(
  async (req, ctx) => {
    const q = failureModesQueryFrom(failureModesQuerySchema.parse(paramsFromSearch(req.nextUrl.searchParams)));
    if (q.compare) return NextResponse.json(await compareFailureModes(ctx, q.filter, q.compare, q.limit));
    return NextResponse.json(await listFailureModes(ctx, q.filter, { limit: q.limit }));
  },
  { permission: "trajectory:read" },
);
