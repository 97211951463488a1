// GET /api/exports/:id/download?file=data|card — the finished export file (streamed from disk) or its dataset card
import fs from "node:fs";
import { Readable } from "node:stream";
import { z } from "zod";
import { route, queryObject } from "@/lib/http/route";
import { openExportFile } from "@/lib/services/curation/export-jobs";

const querySchema = z.strictObject({ file: z.enum(["data", "card"]).default("data") });

export const GET = route<{ id: string }>(async (req, ctx, { id }) => {
  const { file } = querySchema.parse(queryObject(req));
  const f = await openExportFile(ctx, id, file);
  const body = Readable.toWeb(fs.createReadStream(f.path)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "content-type": file === "card" ? "text/markdown; charset=utf-8" : "application/octet-stream",
      "content-length": String(f.size),
      "content-disposition": `attachment; filename="${f.filename.replace(/[^\w.-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
    },
  });
}, { permission: "dataset:export" });
