// GET /api/v1/trajectories/:id/replay/index — replay manifest: step times, chunk boundaries, idle pauses, one line per step.
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { getReplayManifest } from "@/lib/services/replay";

export const GET = route<{ id: string }>(async (_req, ctx, { id }) => NextResponse.json(await getReplayManifest(ctx, id)), {
  permission: "trajectory:read",
});
