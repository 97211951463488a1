// Inspect AI eval logs (formats.md §10), in their JSON form or as a `.eval` ZIP archive (opened by inspect-eval.ts;
// both go through the same per-sample conversion): one trajectory per sample × epoch. Messages become steps (tool
// results land on the assistant step whose call they answer, tool errors are kept as observation text), scores
// become reward/outcome when they are clearly binary. Large strings are stored once in the sample's `attachments`
// and referenced as `attachment://<hash>`; they are resolved before anything else.
import { z } from "zod";
import type { Outcome, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, readPythonJson, runNameFor, type ChatTurn } from "./chat-steps.ts";
import { isEvalArchive, openEvalArchive } from "./inspect-eval.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { isRecord, issue, nonNegativeInt, normalized, schemaIssue, toIso } from "./util.ts";

const FORMAT = "inspect";

const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.unknown().optional(),
  tool_calls: z.array(z.object({ id: z.string().nullish(), function: z.string(), arguments: z.unknown().optional() })).nullish(),
  tool_call_id: z.string().nullish(),
  error: z.object({ type: z.string(), message: z.string().nullish() }).nullish(),
  // Logs before the typed error had a plain string.
  tool_error: z.string().nullish(),
  // Logs before reasoning became a content part had it as a field of the assistant message (Inspect still migrates it).
  reasoning: z.string().nullish(),
});
type Message = z.infer<typeof messageSchema>;

const scoreSchema = z.object({ value: z.unknown().optional(), explanation: z.string().nullish() });

const sampleSchema = z.object({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().nullish(),
  input: z.unknown().optional(),
  target: z.unknown().optional(),
  // The conversation is where the steps come from (events are not read for steps). Inspect always writes a list, so
  // `null` is a damaged sample: refused, naming the field, rather than imported as a trajectory with no steps.
  messages: z
    .array(messageSchema, {
      error: (i) => (i.input === null ? "is null: the sample's steps are missing (Inspect writes a list of messages)" : undefined),
    })
    .optional(),
  scores: z.record(z.string(), scoreSchema).nullish(),
  // Logs before scores{} had a single score.
  score: scoreSchema.nullish(),
  model_usage: z.record(z.string(), z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() })).nullish(),
  total_time: z.number().nullish(),
  working_time: z.number().nullish(),
  error: z.object({ message: z.string().nullish() }).nullish(),
  limit: z.object({ type: z.string() }).nullish(),
});
type Sample = z.infer<typeof sampleSchema>;

const logSchema = z.object({
  version: z.number().nullish(),
  status: z.string().nullish(),
  eval: z.object({
    task: z.string(),
    model: z.string(),
    run_id: z.string().nullish(),
    eval_id: z.string().nullish(),
    created: z.string().nullish(),
  }),
  samples: z.array(z.unknown()).nullish(),
  error: z.object({ message: z.string().nullish() }).nullish(),
});
type EvalLog = z.infer<typeof logSchema>;

const ATTACHMENT = "attachment://";

/** Replace `attachment://<hash>` strings by the attachment text, everywhere in the sample except the event log. */
export function resolveAttachments(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const hit = value.startsWith(ATTACHMENT) ? attachments[value.slice(ATTACHMENT.length)] : undefined;
    return typeof hit === "string" ? hit : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k !== "events" && k !== "attachments") out[k] = resolveAttachments(v, attachments);
  }
  return out;
}

/** Text and reasoning parts of Inspect message content (a string or a list of typed parts). */
function splitContent(content: unknown): { text?: string; reasoning?: string } {
  if (typeof content === "string") return { text: content };
  if (!Array.isArray(content)) return {};
  const texts: string[] = [];
  const reasoning: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    // A redacted reasoning part holds the provider's encrypted blob in `reasoning`: show its summary, never the blob.
    if (part.type === "reasoning" && part.redacted === true)
      reasoning.push(typeof part.summary === "string" && part.summary ? part.summary : "[reasoning redacted]");
    else if (part.type === "reasoning" && typeof part.reasoning === "string") reasoning.push(part.reasoning);
    else if (typeof part.text === "string") texts.push(part.text);
    else if (typeof part.type === "string") texts.push(`[${part.type}]`);
  }
  return { text: texts.join("\n") || undefined, reasoning: reasoning.join("\n") || undefined };
}

function toTurn(m: Message): ChatTurn {
  const { text, reasoning } = splitContent(m.content);
  if (m.role === "assistant") {
    const toolCalls: ToolCall[] | undefined = m.tool_calls?.map((c) => ({
      id: c.id ?? undefined,
      name: c.function,
      arguments: c.arguments,
    }));
    const legacy = m.reasoning?.trim() ? m.reasoning : undefined;
    return { role: "assistant", text, reasoning: [legacy, reasoning].filter(Boolean).join("\n") || undefined, toolCalls };
  }
  if (m.role === "tool") {
    const error = m.error
      ? `Error (${m.error.type})${m.error.message ? `: ${m.error.message}` : ""}`
      : m.tool_error
        ? `Error: ${m.tool_error}`
        : undefined;
    return { role: "tool", text: [text, error].filter(Boolean).join("\n"), toolCallId: m.tool_call_id ?? undefined };
  }
  return { role: m.role, text: text ?? "" };
}

/** Outcome only for clearly binary scores (C/I, 1/0, true/false); other numbers are kept as reward. */
export function scoreOutcome(value: unknown): { outcome: Outcome; reward?: number } {
  if (typeof value === "boolean") return { outcome: value ? "passed" : "failed", reward: value ? 1 : 0 };
  if (typeof value === "string") {
    const s = value.trim();
    if (s === "C" || s.toLowerCase() === "true") return { outcome: "passed", reward: 1 };
    if (s === "I" || s.toLowerCase() === "false") return { outcome: "failed", reward: 0 };
    if (s !== "" && Number.isFinite(Number(s))) return scoreOutcome(Number(s));
    return { outcome: "unknown" };
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    if (value === 1) return { outcome: "passed", reward: 1 };
    if (value === 0) return { outcome: "failed", reward: 0 };
    return { outcome: "unknown", reward: value };
  }
  return { outcome: "unknown" };
}

function inputText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return undefined;
  const user = input.find((m) => isRecord(m) && m.role === "user");
  return isRecord(user) ? splitContent(user.content).text : undefined;
}

function toDraft(
  log: EvalLog,
  sample: Sample,
  times: { start?: string; end?: string },
  options: ReadOptions,
  tools: unknown[],
): TrajectoryDraft {
  const steps = chatToSteps((sample.messages ?? []).map(toTurn));
  const scores = sample.scores ?? (sample.score ? { score: sample.score } : {});
  const [first] = Object.values(scores);
  const { outcome, reward } = scoreOutcome(first?.value);
  const usage = Object.values(sample.model_usage ?? {});
  const sampleId = String(sample.id);
  const runId = log.eval.run_id ?? undefined;
  return {
    // Inspect tasks are datasets of samples; a sample is what Terminal-Bench calls a task.
    task: { benchmark: log.eval.task, id: sampleId, name: `${log.eval.task}/${sampleId}`, instruction: inputText(sample.input) },
    run: {
      name: runNameFor(options, "inspect", runId ? `${log.eval.model}/${runId}` : log.eval.model),
      model: log.eval.model,
      agent: "inspect",
      source: "inspect",
    },
    outcome,
    reward,
    verifierOutput: first?.explanation ?? undefined,
    failureMode: sample.error ? "error" : sample.limit ? `limit:${sample.limit.type}` : undefined,
    startedAt: times.start,
    endedAt: times.end,
    inputTokens: usage.length ? usage.reduce((n, u) => n + (nonNegativeInt(u.input_tokens) ?? 0), 0) : undefined,
    outputTokens: usage.length ? usage.reduce((n, u) => n + (nonNegativeInt(u.output_tokens) ?? 0), 0) : undefined,
    steps,
    metadata: {
      sampleId,
      epoch: sample.epoch ?? undefined,
      evalId: log.eval.eval_id ?? undefined,
      evalRunId: runId,
      logStatus: log.status ?? undefined,
      scores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, v.value])),
      target: sample.target,
      error: sample.error?.message ?? undefined,
      totalTimeSec: sample.total_time ?? undefined,
      workingTimeSec: sample.working_time ?? undefined,
      // The tool info the model was given (kept: an SFT export declares these tools).
      tools: tools.length ? tools : undefined,
    },
  };
}

/** The tools offered to the model across the sample's model events (Inspect ToolInfo: name, description, parameters), first definition of a name wins. */
function sampleTools(raw: unknown): unknown[] {
  const events = isRecord(raw) && Array.isArray(raw.events) ? raw.events : [];
  const byName = new Map<string, unknown>();
  for (const e of events) {
    if (!isRecord(e) || e.event !== "model" || !Array.isArray(e.tools)) continue;
    for (const t of e.tools) if (isRecord(t) && typeof t.name === "string" && !byName.has(t.name)) byName.set(t.name, t);
  }
  return [...byName.values()];
}

/** First and last event timestamps: the sample's own start and end. */
function sampleTimes(raw: unknown): { start?: string; end?: string } {
  const events = isRecord(raw) && Array.isArray(raw.events) ? raw.events : [];
  const stamp = (e: unknown) => (isRecord(e) ? toIso(e.timestamp) : undefined);
  return { start: stamp(events[0]), end: stamp(events.at(-1)) };
}

/** One sample (raw JSON) as a trajectory record; `file` and `prefix` say where it is, for messages. */
function sampleRecord(log: EvalLog, raw: unknown, file: string, prefix: string, options: ReadOptions): ImportRecord {
  const attachments = isRecord(raw) && isRecord(raw.attachments) ? raw.attachments : {};
  const sample = sampleSchema.safeParse(resolveAttachments(raw, attachments));
  if (!sample.success) return schemaIssue(sample.error, file, undefined, prefix);
  return normalized(toDraft(log, sample.data, sampleTimes(raw), options, sampleTools(raw)), FORMAT, file);
}

function noSamples(log: EvalLog, file: string, path?: string): ImportRecord {
  return issue(
    file,
    `the log has no samples (status: ${log.status ?? "unknown"}${log.error?.message ? `, error: ${log.error.message}` : ""})`,
    undefined,
    path,
  );
}

/** Samples of a `.eval` archive are named by their entry: "run.eval[samples/1_epoch_1.json]". */
async function* readEvalLog(source: Extract<ImportSource, { kind: "file" }>, options: ReadOptions): AsyncGenerator<ImportRecord> {
  const opened = await openEvalArchive(source);
  if (!opened.ok) return yield opened.record;
  const { archive } = opened;
  const parsed = logSchema.safeParse(archive.header);
  if (!parsed.success) return yield schemaIssue(parsed.error, archive.headerFile);
  if (archive.samples.length === 0) return yield noSamples(parsed.data, source.displayPath);
  for (const entry of archive.samples) {
    const raw = archive.readSample(entry);
    yield raw.ok ? sampleRecord(parsed.data, raw.value, archive.fileOf(entry), "", options) : raw.record;
  }
}

export const inspectImporter: Importer = {
  format: FORMAT,
  label: "Inspect AI eval log (.eval or JSON)",
  detect(source) {
    if (source.kind !== "file") return 0;
    if (isEvalArchive(source)) return 0.95;
    const head = source.head.trimStart();
    if (!head.startsWith("{") || !/"eval"\s*:\s*\{/.test(head)) return 0;
    if (/"samples"\s*:/.test(head) || (/"version"\s*:\s*\d/.test(head) && /"status"\s*:\s*"/.test(head))) return 0.95;
    return 0.5;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    if (isEvalArchive(source)) return yield* readEvalLog(source, options);
    const file = source.displayPath;
    const doc = await readPythonJson(source);
    if (!doc.ok) return yield doc.record;
    const parsed = logSchema.safeParse(doc.value);
    if (!parsed.success) return yield schemaIssue(parsed.error, file);
    const log = parsed.data;
    const samples = log.samples ?? [];
    if (samples.length === 0) return yield noSamples(log, file, "samples");
    for (const [i, raw] of samples.entries()) yield sampleRecord(log, raw, file, `samples[${i}]`, options);
  },
};
