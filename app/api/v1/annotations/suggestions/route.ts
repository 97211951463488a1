// /api/v1/annotations/suggestions — suggestions (the detector's findings, imported judges' output), never labels.
// GET lists the caller's undecided suggestions on a trajectory; POST records the caller's decision (accepting or
// changing one creates an ordinary label); DELETE ?suggestion=<key> withdraws the caller's decision (and its label).
import { NextResponse } from "next/server";
import { queryObject, route } from "@/lib/http/route";
import { readJsonBody } from "@/lib/http/body";
import { listSuggestions } from "@/lib/services/annotation/suggestions/list-suggestions";
import { decideSuggestion, withdrawDecision } from "@/lib/services/annotation/suggestions/decide-suggestion";
import { z } from "zod";

export const GET = route(async (req, ctx) => NextResponse.json(await listSuggestions(ctx, queryObject(req))), {
  permission: "trajectory:read",
});

export const POST = route(
  async (req, ctx) => {
    const body = await readJsonBody(req);
    return NextResponse.json(await decideSuggestion(ctx, body), { status: 201 });
  },
  { permission: "annotation:write" },
);

const withdrawQuery = z.object({ suggestion: z.string().min(1).max(200) });

export const DELETE = route(
  async (req, ctx) => NextResponse.json(await withdrawDecision(ctx, withdrawQuery.parse(queryObject(req)).suggestion)),
  { permission: "annotation:write" },
);
