// Use case behind POST /api/v1/trajectories: training pipelines push native-format trajectories (a JSON object, a
// JSON array, or NDJSON), idempotent on the client-supplied id or the content hash. Each record is validated alone.
import { authorize, type ServiceContext } from "./context.ts";
import { importTrajectories, type ImportRecord } from "./import-trajectories.ts";
import { normalized, jsonSyntaxIssue } from "../importers/util.ts";
import { AppError } from "../errors.ts";

export const MAX_API_RECORDS = 10_000;

export interface IngestResult {
  jobId: string | null;
  imported: number;
  duplicates: number;
  failed: number;
  /** One entry per record, in request order. */
  results: { index: number; status: "imported" | "duplicate" | "failed"; id?: string; error?: string }[];
}

function* recordsOf(body: string, ndjson: boolean): Generator<ImportRecord> {
  const where = (i: number) => `request[${i}]`;
  if (ndjson) {
    const lines = body.split("\n");
    let i = 0;
    for (const [n, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        yield normalized(JSON.parse(line), "native", where(i), n + 1);
      } catch (e) {
        const r = jsonSyntaxIssue(where(i), line, e as Error, n);
        yield r;
      }
      i++;
    }
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new AppError("INVALID_INPUT", `body is not valid JSON: ${(e as Error).message}`);
  }
  const items = Array.isArray(value) ? value : [value];
  for (const [i, item] of items.entries()) yield normalized(item, "native", where(i));
}

export async function ingestTrajectories(ctx: ServiceContext, body: string, opts: { ndjson: boolean }): Promise<IngestResult> {
  authorize(ctx, "trajectory:import");
  const records = [...recordsOf(body, opts.ndjson)];
  if (records.length === 0) throw new AppError("INVALID_INPUT", "no trajectories in the request body");
  if (records.length > MAX_API_RECORDS) throw new AppError("PAYLOAD_TOO_LARGE", `at most ${MAX_API_RECORDS} trajectories per request (got ${records.length}); split the batch`);
  const results: IngestResult["results"] = [];
  const report = await importTrajectories(ctx, records, {
    origin: "api",
    inferForks: true,
    onRecord: (file, status, d) => {
      const index = Number(/\[(\d+)\]/.exec(file)?.[1] ?? results.length);
      results.push({ index, status, id: d.id, error: d.error });
    },
  });
  results.sort((a, b) => a.index - b.index);
  return { jobId: report.jobId, imported: report.imported, duplicates: report.duplicates, failed: report.failed, results };
}
