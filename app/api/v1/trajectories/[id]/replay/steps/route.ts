// GET /api/v1/trajectories/:id/replay/steps?from=&to= — one line per step in [from, to) (at most 500) for the replay's step list.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { getStepSummaries, stepSummaryQuerySchema } from "@/lib/services/replay";

export const GET = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const q = stepSummaryQuerySchema.parse(queryObject(req));
    return NextResponse.json(await getStepSummaries(ctx, id, q));
  },
  { permission: "trajectory:read" },
);
