// GET /api/v1/trajectories/:id/replay?fromMs=&toMs=&keyframe=1 — replay event chunks for a time range, starting at the nearest keyframe.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { getReplayRange, replayRangeQuerySchema } from "@/lib/services/replay";

export const GET = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const q = replayRangeQuerySchema.parse(queryObject(req));
    return NextResponse.json(await getReplayRange(ctx, id, q));
  },
  { permission: "trajectory:read" },
);
