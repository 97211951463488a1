// POST /api/v1/datasets/:name/freeze — freeze the draft ({expectedRevision?, note?, override?: {reason}}); 409 on held-out tasks or a stale revision
import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/http/body";
import { route } from "@/lib/http/route";
import { freezeDataset } from "@/lib/services/curation/freeze-dataset";

export const POST = route<{ name: string }>(async (req, ctx, { name }) => {
  const body = await readJsonBody(req, { empty: {} });
  return NextResponse.json(await freezeDataset(ctx, { ...(typeof body === "object" && body ? body : {}), name }));
}, { permission: "dataset:write" });
