// asciinema recordings (.cast): v1 (one JSON document, output frames with relative delays), v2 (JSON lines,
// absolute times) and v3 (JSON lines, intervals, `#` comments, exit events). v2/v3 are streamed line by line.
// Alone, a cast becomes a trajectory whose steps are derived from the recording (see cast-steps.ts).
import path from "node:path";
import { z } from "zod";
import type { RecordingEvent, RecordingInput } from "../domain/trajectory.ts";
import type { ImportIssue, ImportRecord, Importer, ImportSource, ReadOptions } from "./types.ts";
import { deriveCastSteps } from "./cast-steps.ts";
import { taskIdFromPath } from "./trial-files.ts";
import { MAX_LINE_BYTES, formatPath, isRecord, normalized, readJson, readLines, toIso, withWarnings } from "./util.ts";

type FileSource = Extract<ImportSource, { kind: "file" }>;

/** Event data kept per recording; beyond it events are dropped with one issue (TB1 casts peak around 4 MB). */
export const MAX_CAST_EVENT_BYTES = 64 * 1024 * 1024;
const MAX_TERM = 1000;
const CODES: ReadonlySet<string> = new Set<RecordingEvent[1]>(["o", "i", "m", "r", "x"]);
const isCode = (code: string): code is RecordingEvent[1] => CODES.has(code);

const size = z.number().int().positive();
const v2HeaderSchema = z.looseObject({
  version: z.literal(2),
  width: size,
  height: size,
  timestamp: z.number().nullish(),
  title: z.string().nullish(),
  command: z.string().nullish(),
});
const v3HeaderSchema = z.looseObject({
  version: z.literal(3),
  term: z.looseObject({ cols: size, rows: size }),
  timestamp: z.number().nullish(),
  title: z.string().nullish(),
  command: z.string().nullish(),
});
const v1Schema = z.looseObject({
  version: z.literal(1),
  width: size,
  height: size,
  stdout: z.array(z.unknown()),
  duration: z.number().nullish(),
  title: z.string().nullish(),
  command: z.string().nullish(),
});

export interface CastParse {
  /** null when the file is not a readable cast at all (then `issues` has exactly one entry saying why). */
  recording: RecordingInput | null;
  issues: ImportIssue[];
  /** The last line was cut off mid-event (a killed recording) and was left out. */
  truncated: boolean;
}

const clampTerm = (n: number) => Math.min(MAX_TERM, Math.max(1, n));

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function failure(file: string, message: string): CastParse {
  return { recording: null, issues: [{ file, message }], truncated: false };
}

/** Header problems are reported as one issue: the version, or the first bad field. */
function parseHeader(value: unknown, file: string): { ok: true; rec: Omit<RecordingInput, "events"> } | { ok: false; parse: CastParse } {
  if (!isRecord(value))
    return { ok: false, parse: failure(file, "not an asciicast recording: the first line is not a JSON header object") };
  const version = value.version;
  if (version !== 2 && version !== 3)
    return { ok: false, parse: failure(file, `not an asciicast recording: unsupported header version ${JSON.stringify(version ?? null)}`) };
  const parsed = version === 3 ? v3HeaderSchema.safeParse(value) : v2HeaderSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return {
      ok: false,
      parse: {
        recording: null,
        issues: [{ file, line: 1, path: `header.${formatPath(first.path)}`, message: first.message }],
        truncated: false,
      },
    };
  }
  const [width, height] =
    parsed.data.version === 3 ? [parsed.data.term.cols, parsed.data.term.rows] : [parsed.data.width, parsed.data.height];
  return {
    ok: true,
    rec: { format: version === 3 ? "asciicast-v3" : "asciicast-v2", width: clampTerm(width), height: clampTerm(height), header: value },
  };
}

/**
 * One event line → event, or the reason it is malformed. Event codes are those asciinema writes (o, i, m, r, and x
 * in v3); an unknown code, a resize that is not COLSxROWS with both ≥ 1, or a negative time is reported, not kept.
 */
function parseEvent(value: unknown): { event?: RecordingEvent; error?: string } {
  if (!Array.isArray(value) || value.length < 3) return { error: "expected an event [time, code, data]" };
  const [time, code, data] = value;
  if (typeof time !== "number" || !Number.isFinite(time)) return { error: "event time must be a number" };
  if (time < 0) return { error: `event time must not be negative (got ${time}); event skipped` };
  if (typeof code !== "string") return { error: "event code must be a string" };
  if (typeof data !== "string" && !(code === "x" && typeof data === "number")) return { error: "event data must be a string" };
  if (!isCode(code)) return { error: `unknown event code ${JSON.stringify(code.slice(0, 20))}; event skipped` };
  if (code === "r" && !validResize(String(data)))
    return { error: `invalid resize ${JSON.stringify(String(data).slice(0, 40))} (expected COLSxROWS, both at least 1); event skipped` };
  return { event: [time, code, String(data)] };
}

function validResize(data: string): boolean {
  const m = /^(\d+)x(\d+)$/.exec(data.trim());
  return m !== null && Number(m[1]) >= 1 && Number(m[2]) >= 1;
}

async function parseV1(source: FileSource): Promise<CastParse> {
  const file = source.displayPath;
  const doc = await readJson(source);
  if (!doc.ok) return { recording: null, issues: doc.record.ok ? [] : [doc.record.issue], truncated: false };
  const parsed = v1Schema.safeParse(doc.value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return {
      recording: null,
      issues: [{ file, path: formatPath(first.path) || undefined, message: `not an asciicast v1 recording: ${first.message}` }],
      truncated: false,
    };
  }
  const issues: ImportIssue[] = [];
  const events: RecordingEvent[] = [];
  let t = 0;
  for (const [i, frame] of parsed.data.stdout.entries()) {
    const delay = Array.isArray(frame) ? frame[0] : undefined;
    const data = Array.isArray(frame) ? frame[1] : undefined;
    if (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0 || typeof data !== "string") {
      issues.push({ file, path: `stdout[${i}]`, message: "expected a frame [delay ≥ 0, data]" });
      continue;
    }
    t += delay;
    events.push([t, "o", data]);
  }
  const { stdout: _stdout, ...header } = parsed.data;
  // The native schema has no v1 tag; events are converted to absolute times, as in v2.
  return {
    recording: { format: "asciicast-v2", width: clampTerm(parsed.data.width), height: clampTerm(parsed.data.height), header, events },
    issues,
    truncated: false,
  };
}

/**
 * Parse a cast file: header check, then events streamed line by line (bounded memory per line). Malformed event
 * lines are reported with their line number and skipped; a cut-off last line is tolerated.
 */
export async function parseAsciicast(source: FileSource): Promise<CastParse> {
  const file = source.displayPath;
  const head = source.head;
  if (!head.trim()) return failure(file, "file is empty");
  if (head.includes("\u0000")) return failure(file, "binary file, not an asciicast recording");
  const nl = head.indexOf("\n");
  const firstLine = nl === -1 ? head : head.slice(0, nl);
  const header = tryJson(firstLine);
  if (isRecord(header) ? header.version === 1 : /^\s*\{[\s\S]*"version"\s*:\s*1\s*[,}]/.test(head)) return parseV1(source);
  if (nl === -1 && source.size > head.length) return failure(file, "not an asciicast recording: the first line is not a JSON header");
  const h = parseHeader(header, file);
  if (!h.ok) return h.parse;

  const v3 = h.rec.format === "asciicast-v3";
  const events: RecordingEvent[] = [];
  const issues: ImportIssue[] = [];
  let pending: { issue: ImportIssue; cutOff: boolean } | undefined;
  let clock = 0;
  let bytes = 0;
  let full = false;
  for await (const { text, lineNo, tooLong } of readLines(source)) {
    if (tooLong) {
      issues.push({ file, line: lineNo, message: `event line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB; skipped` });
      continue;
    }
    if (lineNo === 1 || !text.trim() || (v3 && text.startsWith("#"))) continue;
    if (pending) issues.push(pending.issue);
    pending = undefined;
    const value = tryJson(text);
    if (value === undefined) {
      const trimmed = text.trim();
      pending = {
        issue: { file, line: lineNo, message: "invalid JSON in event line" },
        cutOff: trimmed.startsWith("[") && !trimmed.endsWith("]"),
      };
      continue;
    }
    const { event, error } = parseEvent(value);
    if (error) issues.push({ file, line: lineNo, message: error });
    if (!event || full) continue;
    bytes += event[2].length;
    if (bytes > MAX_CAST_EVENT_BYTES) {
      full = true;
      issues.push({
        file,
        line: lineNo,
        message: `recording holds more than ${MAX_CAST_EVENT_BYTES / 1024 / 1024} MB of events; the rest was left out`,
      });
      continue;
    }
    // v2 times are absolute; a time that goes back is clamped so the timeline stays monotonic, and reported.
    if (!v3 && event[0] < clock)
      issues.push({ file, line: lineNo, message: `event time ${event[0]} s is before the previous event (${clock} s); clamped` });
    clock = v3 ? clock + event[0] : Math.max(clock, event[0]);
    events.push([clock, event[1], event[2]]);
  }
  const truncated = pending?.cutOff ?? false;
  if (pending && !truncated) issues.push(pending.issue);
  return { recording: { ...h.rec, events }, issues, truncated };
}

function headerInfo(header: Record<string, unknown> | undefined): { startMs?: number; title?: string; command?: string } {
  const ts = header?.timestamp;
  return {
    startMs: typeof ts === "number" && Number.isFinite(ts) && ts > 0 ? ts * 1000 : undefined,
    title: typeof header?.title === "string" ? header.title : undefined,
    command: typeof header?.command === "string" ? header.command : undefined,
  };
}

/** Trajectory parts derived from a parsed recording: steps, start/end time, and what the header tells. */
export function castTrajectoryParts(parse: CastParse & { recording: RecordingInput }) {
  const rec = parse.recording;
  const info = headerInfo(rec.header);
  const duration = rec.events.at(-1)?.[0] ?? 0;
  return {
    steps: deriveCastSteps(rec.events, info.startMs),
    startedAt: info.startMs !== undefined ? toIso(info.startMs) : undefined,
    endedAt: info.startMs !== undefined ? toIso(info.startMs + duration * 1000) : undefined,
    recording: rec,
    metadata: {
      asciicast: {
        version: rec.header?.version,
        events: rec.events.length,
        durationSec: Math.round(duration * 1000) / 1000,
        ...(info.title ? { title: info.title } : {}),
        ...(info.command ? { command: info.command } : {}),
        ...(parse.truncated ? { truncated: true } : {}),
      },
    },
  };
}

const CAST_HEADER =
  /^\s*\{[^\n]*"version"\s*:\s*[23]\s*[,}][^\n]*"(?:width|term)"|^\s*\{[^\n]*"(?:width|term)"[^\n]*"version"\s*:\s*[23]\s*[,}]/;

export const asciicastImporter: Importer = {
  format: "asciicast",
  label: "asciinema recording (.cast v1/v2/v3)",
  detect(source) {
    if (source.kind !== "file") return 0;
    if (CAST_HEADER.test(source.head)) return 0.9;
    if (/^\s*\{[\s\S]*"version"\s*:\s*1\s*[,}][\s\S]*"stdout"/.test(source.head)) return 0.8;
    // A .cast that is not a recording is still ours to report, with a clear message.
    return /\.cast(?:\.gz)?$/i.test(source.path) ? 0.5 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const parse = await parseAsciicast(source);
    if (!parse.recording) {
      for (const i of parse.issues) yield { ok: false, issue: i };
      return;
    }
    // With a recording in hand the trajectory is still imported; its bad lines stay with it as warnings.
    const parts = castTrajectoryParts({ ...parse, recording: parse.recording });
    const warnings = [
      ...parse.issues,
      ...(parse.truncated
        ? [{ file: source.displayPath, message: "the last event line was cut off (the recording was interrupted); it was left out" }]
        : []),
    ];
    yield withWarnings(
      normalized(
        {
          task: { benchmark: "unknown", id: taskIdFromPath(source.path) },
          run: { name: options.runName ?? (path.basename(path.dirname(source.path)) || "asciicast") },
          outcome: "unknown",
          ...parts,
        },
        "asciicast",
        source.displayPath,
      ),
      warnings,
    );
  },
};
