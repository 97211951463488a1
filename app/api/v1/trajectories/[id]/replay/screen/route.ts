// GET /api/v1/trajectories/:id/replay/screen?atMs= — the exact screen at a time as text runs (a poster), shown by a seek at once while the terminal rebuilds it.
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { getReplayScreen, replayScreenQuerySchema } from "@/lib/services/replay";

export const GET = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const q = replayScreenQuerySchema.parse(queryObject(req));
    return NextResponse.json(await getReplayScreen(ctx, id, q));
  },
  { permission: "trajectory:read" },
);
