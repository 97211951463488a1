// GET /api/exports/:id/download?file=data|card|provenance|dataset-info — the finished export file (streamed from storage),
// its dataset card, or a sidecar its format writes (the provenance JSONL; LLaMA-Factory's dataset_info.json)
import { Readable } from "node:stream";
import { z } from "zod";
import { route, queryObject } from "@/lib/http/route";
import { EXPORT_FILES, openExportFile } from "@/lib/services/curation/export-jobs";

const querySchema = z.strictObject({ file: z.enum(EXPORT_FILES).default("data") });

export const GET = route<{ id: string }>(
  async (req, ctx, { id }) => {
    const { file } = querySchema.parse(queryObject(req));
    const f = await openExportFile(ctx, id, file);
    const body = Readable.toWeb(f.body) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        "content-type":
          file === "card" ? "text/markdown; charset=utf-8" : file === "dataset-info" ? "application/json" : "application/octet-stream",
        "content-length": String(f.size),
        "content-disposition": `attachment; filename="${f.filename.replace(/[^\w.-]/g, "_")}"`,
        "x-content-type-options": "nosniff",
      },
    });
  },
  { permission: "dataset:export" },
);
