// /api/v1/annotations — human labels. GET lists (blind mode applies), POST creates one as the caller, PATCH changes
// one at the version the caller read (409 when it moved on), DELETE removes one at a version.
import { NextResponse } from "next/server";
import { z } from "zod";
import { queryObject, route } from "@/lib/http/route";
import { listLabels } from "@/lib/services/annotation/list-labels";
import { createLabel, deleteLabel, updateLabel } from "@/lib/services/annotation/save-label";
import { readJsonBody } from "@/lib/http/body";

export const GET = route(async (req, ctx) => NextResponse.json(await listLabels(ctx, queryObject(req))), { permission: "trajectory:read" });

export const POST = route(async (req, ctx) => NextResponse.json(await createLabel(ctx, await readJsonBody(req)), { status: 201 }), {
  permission: "annotation:write",
});

export const PATCH = route(async (req, ctx) => NextResponse.json(await updateLabel(ctx, await readJsonBody(req))), {
  permission: "annotation:write",
});

const deleteQuerySchema = z.object({ id: z.string().min(1).max(100), version: z.coerce.number().int().positive() });

export const DELETE = route(
  async (req, ctx) => {
    const { id, version } = deleteQuerySchema.parse(queryObject(req));
    await deleteLabel(ctx, id, version);
    return new NextResponse(null, { status: 204 });
  },
  { permission: "annotation:write" },
);
