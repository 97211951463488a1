// Request bodies are read as streams with a byte cap (a body is refused the moment it passes the cap, whatever its
// Content-Length says), and Content-Types are checked first: the three types a cross-site <form> or no-cors fetch can
// send without a CORS preflight (text/plain, form-urlencoded, multipart) never reach a JSON or upload route.
import { AppError } from "../errors.ts";

/** The media type of a request, lower-cased, without parameters ("" when there is none). */
export function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export const JSON_TYPES = [
  "application/json",
  "application/x-ndjson",
  "application/jsonl",
  "application/json-seq",
  "application/ndjson",
] as const;
/** Raw file uploads: what the import page sends (octet-stream) plus the types tools set for archives and JSON. */
export const UPLOAD_TYPES = [
  "application/octet-stream",
  "application/zip",
  "application/x-zip-compressed",
  "application/gzip",
  "application/x-gzip",
  ...JSON_TYPES,
] as const;

/** 415 unless the request's Content-Type is one of `allowed` (or ends in +json when JSON is allowed). */
export function requireContentType(headers: Headers, allowed: readonly string[]): string {
  const type = mediaType(headers);
  const json = allowed.includes("application/json") && /^application\/[a-z0-9.+-]+\+json$/.test(type);
  if (allowed.includes(type) || json) return type;
  throw new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    `Content-Type ${type ? `"${type.slice(0, 80)}"` : "is missing; it"} must be one of ${allowed.join(", ")}`,
    { allowed },
  );
}

function tooLarge(what: string, maxBytes: number, setting: string): AppError {
  const size = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : `${maxBytes} bytes`;
  return new AppError("PAYLOAD_TOO_LARGE", `${what} is larger than the ${size} limit (${setting})`);
}

/** Refuses up front when Content-Length already says the body is too large. */
export function checkDeclaredLength(headers: Headers, maxBytes: number, what: string, setting: string): void {
  const declared = Number(headers.get("content-length") ?? 0);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes, setting);
}

/** A stream that errors with 413 once more than `maxBytes` have passed (for bodies that are spooled or piped on). */
export function cappedStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  what: string,
  setting: string,
): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) controller.error(tooLarge(what, maxBytes, setting));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** The whole body as UTF-8 text, read chunk by chunk and abandoned as soon as it passes `maxBytes`. */
export async function readTextCapped(req: Request, maxBytes: number, what = "request body", setting = "limit"): Promise<string> {
  checkDeclaredLength(req.headers, maxBytes, what, setting);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(what, maxBytes, setting);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Cap for the small JSON bodies of the write API (labels, suggestions, datasets): large enough for a dataset edit
 * naming 10^5 ids, small enough that a hostile body is refused before it costs memory. */
export const JSON_BODY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A small JSON request body: capped like every body, JSON Content-Type required (415) when a body is sent, and
 * malformed JSON answered with 400 naming the position rather than a 500. `empty` is returned for an absent body
 * (routes whose body is optional); without it an empty body is a 400.
 */
export async function readJsonBody(req: Request, opts: { empty?: unknown; maxBytes?: number } = {}): Promise<unknown> {
  const declared = mediaType(req.headers);
  if (declared) requireContentType(req.headers, ["application/json"]);
  const text = await readTextCapped(req, opts.maxBytes ?? JSON_BODY_MAX_BYTES, "request body", "JSON_BODY_MAX_BYTES");
  if (text.trim() === "") {
    if (opts.empty !== undefined) return opts.empty;
    throw new AppError("INVALID_INPUT", "request body: expected a JSON object, got an empty body");
  }
  if (!declared) requireContentType(req.headers, ["application/json"]);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AppError("INVALID_INPUT", `request body is not valid JSON (${(e as Error).message})`);
  }
}
