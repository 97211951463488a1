// POST /api/imports?name=<file name>[&run=&format=&strict=1&dryRun=1] — upload one file (raw body; .zip/.gz ok) and
// import it. Streams NDJSON: {"type":"progress",…} lines while importing, then one {"type":"result",…} line.
import { z } from "zod";
import { route, queryObject } from "@/lib/http/route";
import { importReceived, receiveUpload } from "@/lib/services/import/import-upload";
import { formatIssue } from "@/lib/services/import/import-trajectories";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { checkDeclaredLength, UPLOAD_TYPES, requireContentType } from "@/lib/http/body";

export const dynamic = "force-dynamic";

const flag = z
  .enum(["1", "0", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");
const querySchema = z.object({
  name: z.string().min(1).max(255),
  run: z.string().trim().min(1).max(200).optional(),
  format: z.string().min(1).max(40).optional(),
  strict: flag,
  dryRun: flag,
});

// The permission is checked by route() before anything is read: the import service checks again, but only once the
// response is streaming (200).
export const POST = route(
  async (req, ctx) => {
    const q = querySchema.parse(queryObject(req));
    // A raw file body, never a form: the types a cross-site page can post without a preflight are refused (415).
    requireContentType(req.headers, UPLOAD_TYPES);
    if (!req.body) throw new AppError("INVALID_INPUT", "the request has no body (send the file as the raw request body)");
    const env = getEnv();
    const maxBytes = env.RETERM_MAX_UPLOAD_MB * 1024 * 1024;
    checkDeclaredLength(req.headers, maxBytes, "upload", "RETERM_MAX_UPLOAD_MB");
    // Spool and unpack before answering: a refused upload (too large, zip bomb, bad archive) gets a real 413/422.
    const received = await receiveUpload(
      ctx,
      { name: q.name, body: req.body },
      { maxBytes, maxUnpackedBytes: maxBytes * 4, maxZipEntries: env.RETERM_MAX_ZIP_ENTRIES },
    );
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (o: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(o)}\n`));
        let last = 0;
        try {
          const result = await importReceived(ctx, received, {
            runName: q.run,
            format: q.format,
            strict: q.strict,
            dryRun: q.dryRun,
            onProgress: (p) => {
              if (Date.now() - last < 200) return;
              last = Date.now();
              send({
                type: "progress",
                files: p.files,
                totalFiles: p.totalFiles,
                bytes: p.bytes,
                totalBytes: p.totalBytes,
                imported: p.report.imported,
                duplicates: p.report.duplicates,
                failed: p.report.failed,
              });
            },
          });
          const r = result.report;
          send({
            type: "result",
            jobId: r.jobId,
            imported: r.imported,
            duplicates: r.duplicates,
            failed: r.failed,
            rolledBack: r.rolledBack ?? false,
            files: result.files,
            errors: r.errors.slice(0, 500).map(formatIssue),
            warnings: r.warnings.slice(0, 500).map(formatIssue),
            inferredForks: result.inferredForks?.links.length ?? 0,
            seconds: result.seconds,
          });
        } catch (e) {
          const message = e instanceof AppError || e instanceof z.ZodError ? e.message : "import failed on the server";
          if (!(e instanceof AppError)) console.error(e);
          send({ type: "error", code: e instanceof AppError ? e.code : "INTERNAL", message });
        } finally {
          controller.close();
        }
      },
    });
    return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
  },
  { permission: "trajectory:import" },
);
