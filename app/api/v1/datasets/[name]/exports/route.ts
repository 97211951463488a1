// POST /api/v1/datasets/:name/exports — start a background export ({format, version?, override?: {reason},
// options?: {observations?: rendered|raw, context?: turns|prompt, maxTokens?}}) → the job (202)
import { NextResponse } from "next/server";
import { z } from "zod";
import { readJsonBody } from "@/lib/http/body";
import { route } from "@/lib/http/route";
import { listDatasetExports, startExportJob } from "@/lib/services/curation/export-jobs";
import { EXPORT_FORMATS } from "@/lib/domain/curation/types";
import { exportOptionsSchema } from "@/lib/services/curation/export-dataset";

const bodySchema = z.strictObject({
  format: z.enum(EXPORT_FORMATS),
  version: z.number().int().positive().optional(),
  override: z.object({ reason: z.string() }).optional(),
  options: exportOptionsSchema.partial().strict().optional(),
});

export const POST = route<{ name: string }>(
  async (req, ctx, { name }) => {
    const body = bodySchema.parse(await readJsonBody(req));
    return NextResponse.json(await startExportJob(ctx, { ...body, name }), { status: 202 });
  },
  { permission: "dataset:export" },
);

// GET /api/v1/datasets/:name/exports — the dataset's recent exports
export const GET = route<{ name: string }>(
  async (_req, ctx, { name }) => NextResponse.json({ exports: await listDatasetExports(ctx, name) }),
  { permission: "dataset:export" },
);
