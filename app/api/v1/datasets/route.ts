// GET /api/v1/datasets — every dataset with its latest version
import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/http/body";
import { route } from "@/lib/http/route";
import { listAllDatasets } from "@/lib/services/curation/view-datasets";
import { createDataset } from "@/lib/services/curation/manage-datasets";

export const GET = route(async (_req, ctx) => NextResponse.json({ datasets: await listAllDatasets(ctx) }), {
  permission: "trajectory:read",
});

// POST /api/v1/datasets — create a dataset from rules ({name, description?, rules}); 409 when the name is taken
export const POST = route(
  async (req, ctx) => {
    const { dataset, built } = await createDataset(ctx, await readJsonBody(req));
    return NextResponse.json({ dataset, matched: built.matched, items: built.items.length, rejected: built.rejected }, { status: 201 });
  },
  { permission: "dataset:write" },
);
