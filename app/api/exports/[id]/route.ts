// GET /api/exports/:id — a background export's status and progress
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { getExportJob } from "@/lib/services/curation/export-jobs";

export const GET = route<{ id: string }>(async (_req, ctx, { id }) => NextResponse.json(await getExportJob(ctx, id)), {
  permission: "dataset:export",
});
