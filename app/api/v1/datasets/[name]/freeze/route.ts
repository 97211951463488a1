// POST /api/v1/datasets/:name/freeze — freeze the draft ({expectedRevision?, note?, override?: {reason}}); 409 on held-out tasks or a stale revision; the version's exports are then stored in the background
import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/http/body";
import { route } from "@/lib/http/route";
import { freezeDataset } from "@/lib/services/curation/freeze-dataset";
import { startStoringFrozenExports } from "@/lib/services/curation/frozen-exports";

export const POST = route<{ name: string }>(
  async (req, ctx, { name }) => {
    const body = await readJsonBody(req, { empty: {} });
    const r = await freezeDataset(ctx, { ...(typeof body === "object" && body ? body : {}), name });
    const { jobId } = await startStoringFrozenExports(ctx, { name, version: r.version });
    return NextResponse.json({ ...r, storeExportsJob: jobId });
  },
  { permission: "dataset:write" },
);
