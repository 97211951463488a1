// GET /api/v1/datasets/:name — the dataset, its rules and versions (with manifests)
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { getDatasetDetail } from "@/lib/services/curation/view-datasets";

export const GET = route<{ name: string }>(async (_req, ctx, { name }) => NextResponse.json(await getDatasetDetail(ctx, name)), {
  permission: "trajectory:read",
});
