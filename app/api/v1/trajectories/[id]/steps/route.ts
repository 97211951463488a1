// GET /api/v1/trajectories/:id/steps?from=&to= — steps [from, to) in full (at most 500 per request).
import { NextResponse } from "next/server";
import { z } from "zod";
import { queryObject, route } from "@/lib/http/route";
import { getSteps, MAX_STEP_RANGE } from "@/lib/services/browse/view-trajectory";

const querySchema = z
  .object({ from: z.coerce.number().int().nonnegative(), to: z.coerce.number().int().positive() })
  .refine((q) => q.to > q.from, { message: "to must be greater than from", path: ["to"] })
  .refine((q) => q.to - q.from <= MAX_STEP_RANGE, { message: `at most ${MAX_STEP_RANGE} steps per request`, path: ["to"] });

export const GET = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const { from, to } = querySchema.parse(queryObject(req));
    return NextResponse.json({ steps: await getSteps(ctx, id, from, to) });
  },
  { permission: "trajectory:read" },
);
