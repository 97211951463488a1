// Use case behind POST /api/v1/trajectories: training pipelines push native-format trajectories (a JSON object, a
// JSON array, or NDJSON), idempotent on the client-supplied id or the content hash. Each record is validated alone.
import { authorize, type ServiceContext } from "../context.ts";
import { importTrajectories, type ImportRecord } from "./import-trajectories.ts";
import { issue, normalized, jsonSyntaxIssue } from "../../importers/util.ts";
import { nestingDepth, topLevelArraySpans, utf8Length } from "../../domain/json-spans.ts";
import { AppError } from "../../errors.ts";

export const MAX_API_RECORDS = 10_000;

export interface IngestResult {
  jobId: string | null;
  imported: number;
  duplicates: number;
  failed: number;
  /** One entry per record, in request order. */
  results: { index: number; status: "imported" | "duplicate" | "failed"; id?: string; error?: string }[];
}

function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${n} bytes`;
}

/**
 * Deeper than any real trajectory (metadata and tool arguments nest a few levels), shallow enough that no recursive
 * step downstream (validation, hashing, serialization) can run out of stack on it.
 */
export const MAX_RECORD_DEPTH = 128;

/**
 * Each record is sized and its nesting measured before it is parsed: an oversized or absurdly deep record fails alone
 * with a clear message.
 */
function* recordsOf(body: string, ndjson: boolean, maxRecordBytes: number): Generator<ImportRecord> {
  const where = (i: number) => `request[${i}]`;
  const refusal = (i: number, text: string, start: number, end: number, line?: number): ImportRecord | null => {
    const bytes = utf8Length(text, start, end);
    if (bytes > maxRecordBytes) {
      return issue(
        where(i),
        `record is ${sizeText(bytes)}, more than the ${sizeText(maxRecordBytes)} allowed per trajectory (RETERM_MAX_RECORD_MB); split its recording or import it as a file`,
        line,
      );
    }
    const depth = nestingDepth(text, start, end, MAX_RECORD_DEPTH);
    return depth > MAX_RECORD_DEPTH ? issue(where(i), `record nests more than ${MAX_RECORD_DEPTH} levels deep; refusing it`, line) : null;
  };
  if (ndjson) {
    let i = 0;
    let n = 0;
    for (let at = 0; at <= body.length; n++) {
      const nl = body.indexOf("\n", at);
      const end = nl < 0 ? body.length : nl;
      const start = at;
      at = end + 1;
      const line = body.slice(start, end);
      if (!line.trim()) continue;
      const refused = refusal(i, line, 0, line.length, n + 1);
      if (refused) yield refused;
      else {
        try {
          yield normalized(JSON.parse(line), "native", where(i), n + 1);
        } catch (e) {
          yield jsonSyntaxIssue(where(i), line, e as Error, n);
        }
      }
      i++;
    }
    return;
  }
  const spans = topLevelArraySpans(body);
  if (spans) {
    // Parse element by element so a refused one is never parsed; a syntax error falls back to one message.
    const refused = spans.map(([s, e], i) => refusal(i, body, s, e));
    const parsed: unknown[] = [];
    try {
      for (const [i, [s, e]] of spans.entries()) parsed.push(refused[i] ? undefined : JSON.parse(body.slice(s, e)));
    } catch {
      syntaxError(body);
    }
    for (const i of spans.keys()) yield refused[i] ?? normalized(parsed[i], "native", where(i));
    return;
  }
  const refused = refusal(0, body, 0, body.length);
  if (refused) {
    yield refused;
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    syntaxError(body);
  }
  yield normalized(value, "native", where(0));
}

function syntaxError(body: string): never {
  try {
    JSON.parse(body);
  } catch (e) {
    throw new AppError("INVALID_INPUT", `body is not valid JSON: ${(e as Error).message}`);
  }
  throw new AppError("INVALID_INPUT", "body is not valid JSON");
}

/** The bound on one record when the caller sets none (the file importers' line cap). */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

export async function ingestTrajectories(
  ctx: ServiceContext,
  body: string,
  opts: { ndjson: boolean; maxRecordBytes?: number },
): Promise<IngestResult> {
  authorize(ctx, "trajectory:import");
  const records = [...recordsOf(body, opts.ndjson, opts.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES)];
  if (records.length === 0) throw new AppError("INVALID_INPUT", "no trajectories in the request body");
  if (records.length > MAX_API_RECORDS)
    throw new AppError("PAYLOAD_TOO_LARGE", `at most ${MAX_API_RECORDS} trajectories per request (got ${records.length}); split the batch`);
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
