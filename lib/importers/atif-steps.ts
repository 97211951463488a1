// ATIF (Harbor's Agent Trajectory Interchange Format, v1.0–v1.7): the tolerant source schema, the mapping of its
// steps to normalized steps, and reading a trajectory split into continuation segments. Shared by the ATIF file
// importer and the Harbor trial importer.
import path from "node:path";
import { z } from "zod";
import type { StepInput, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportRecord } from "./types.ts";
import { exists, readJsonFile } from "./trial-files.ts";
import { contentText, isRecord, nonNegativeInt, schemaIssue, toIso, warning } from "./util.ts";

const content = z.union([z.string(), z.array(z.unknown())]).nullish();
const count = z.number().nullish();

const toolCallSchema = z.looseObject({
  tool_call_id: z.string().nullish(),
  function_name: z.string(),
  arguments: z.unknown().optional(),
});

const resultSchema = z.looseObject({
  source_call_id: z.string().nullish(),
  content,
  subagent_trajectory_ref: z
    .array(z.looseObject({ trajectory_id: z.string().nullish(), trajectory_path: z.string().nullish(), session_id: z.string().nullish() }))
    .nullish(),
});

export const atifStepSchema = z.looseObject({
  step_id: z.number().nullish(),
  timestamp: z.string().nullish(),
  source: z.enum(["system", "user", "agent"]),
  message: content,
  reasoning_content: z.string().nullish(),
  model_name: z.string().nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  observation: z.looseObject({ results: z.array(resultSchema).nullish() }).nullish(),
  metrics: z.looseObject({ prompt_tokens: count, completion_tokens: count, cached_tokens: count, cost_usd: count }).nullish(),
  is_copied_context: z.boolean().nullish(),
  llm_call_count: count,
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export type AtifStep = z.infer<typeof atifStepSchema>;

export const atifDocumentSchema = z.looseObject({
  schema_version: z.string().regex(/^ATIF-v1\.\d+$/, 'expected "ATIF-v1.x"'),
  session_id: z.string().nullish(),
  trajectory_id: z.string().nullish(),
  agent: z.looseObject({
    name: z.string().min(1),
    version: z.string().nullish(),
    model_name: z.string().nullish(),
    /** ATIF v1.5+: the agent's tools as OpenAI function schemas (kept: an SFT export declares them). */
    tool_definitions: z.array(z.unknown()).nullish(),
    extra: z.record(z.string(), z.unknown()).nullish(),
  }),
  steps: z.array(atifStepSchema),
  notes: z.string().nullish(),
  final_metrics: z
    .looseObject({ total_prompt_tokens: count, total_completion_tokens: count, total_cached_tokens: count, total_cost_usd: count })
    .nullish(),
  continued_trajectory_ref: z.string().nullish(),
  subagent_trajectories: z.array(z.unknown()).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export type AtifDocument = z.infer<typeof atifDocumentSchema>;

/** Our convention for recovery attempts written as ATIF (formats.md §12): root `extra.forked_from`. */
const forkExtraSchema = z.looseObject({
  forked_from: z.looseObject({
    session_id: z.string().min(1).nullish(),
    trajectory_id: z.string().min(1).nullish(),
    step_id: z.number().int().positive(),
  }),
  attempt: z.number().int().nonnegative().nullish(),
});

const terminusReplySchema = z.looseObject({ commands: z.array(z.looseObject({ keystrokes: z.string() })) });

const SHELL_TOOL = /bash|shell|terminal|exec/i;

/** Stable id: re-importing the same run is a no-op, and attempts can name their parent by session. */
export function atifId(doc: Pick<AtifDocument, "trajectory_id" | "session_id">): string | undefined {
  const key = doc.trajectory_id || doc.session_id;
  return key ? `atif:${key}`.slice(0, 200) : undefined;
}

function dropFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : args;
  } catch {
    return args;
  }
}

/** What was typed: Terminus keystrokes, the command of shell tools, else `name(args-json)`. */
export function renderToolCall(call: ToolCall): string {
  const args = call.arguments;
  if (isRecord(args)) {
    if (call.name === "bash_command" && typeof args.keystrokes === "string") return dropFinalNewline(args.keystrokes);
    const command = args.command ?? args.cmd;
    if (SHELL_TOOL.test(call.name) && typeof command === "string") return dropFinalNewline(command);
    if (Object.keys(args).length === 0) return `${call.name}()`;
  }
  return args === undefined || args === null ? `${call.name}()` : `${call.name}(${JSON.stringify(args)})`;
}

/** Terminus raw-content mode keeps the model's JSON reply as the message and has no tool_calls. */
function rawTerminusAction(step: AtifStep, message: string | undefined, observation: string | undefined): string | undefined {
  if (step.source !== "agent" || !message || observation?.startsWith("Previous response had parsing errors")) return undefined;
  const text = message.trim();
  if (!text.startsWith("{") || !text.endsWith("}")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const reply = terminusReplySchema.safeParse(value);
  if (!reply.success || reply.data.commands.length === 0) return undefined;
  return reply.data.commands.map((c) => dropFinalNewline(c.keystrokes)).join("\n");
}

function nonEmpty(text: string | undefined | null): string | undefined {
  return text !== undefined && text !== null && text.trim() !== "" ? text : undefined;
}

export function mapAtifStep(step: AtifStep): StepInput {
  const toolCalls: ToolCall[] = (step.tool_calls ?? []).map((c) => ({
    ...(c.tool_call_id ? { id: c.tool_call_id } : {}),
    name: c.function_name,
    arguments: parseArguments(c.arguments),
  }));
  const outputs = (step.observation?.results ?? [])
    .map((r) => contentText(r.content))
    .filter((t): t is string => t !== undefined && t !== "");
  const observation = outputs.length ? outputs.join("\n") : undefined;
  const message = nonEmpty(contentText(step.message));
  const action = toolCalls.length ? toolCalls.map(renderToolCall).join("\n") : rawTerminusAction(step, message, observation);
  return {
    source: step.source,
    timestamp: toIso(step.timestamp),
    message,
    reasoning: nonEmpty(step.reasoning_content),
    action: nonEmpty(action),
    toolCalls: toolCalls.length ? toolCalls : undefined,
    observation,
    promptTokens: nonNegativeInt(step.metrics?.prompt_tokens),
    completionTokens: nonNegativeInt(step.metrics?.completion_tokens),
    isCopiedContext: step.is_copied_context === true ? true : undefined,
  };
}

/** The parts of a normalized trajectory that ATIF itself states (no task, no outcome: those live elsewhere). */
export interface AtifParts {
  id?: string;
  steps: StepInput[];
  agent: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  startedAt?: string;
  endedAt?: string;
  fork?: TrajectoryDraft["fork"];
  metadata: Record<string, unknown>;
}

/** Map one trajectory given as its segments (head first, then continuation files in order). */
export function atifParts(segments: readonly AtifDocument[]): AtifParts {
  const head = segments[0]!;
  const last = segments.at(-1)!;
  const steps = segments.flatMap((s) => s.steps.map(mapAtifStep));
  const base = Date.parse(steps.find((s) => s.timestamp)?.timestamp ?? "");
  if (!Number.isNaN(base)) for (const s of steps) if (s.timestamp) s.offsetMs = Math.max(0, Date.parse(s.timestamp) - base);
  const stamped = steps.filter((s) => s.timestamp);

  // Harbor writes running totals into every segment, so the last segment's final_metrics cover the whole run.
  const metrics = last.final_metrics ?? head.final_metrics;
  const sum = (key: "promptTokens" | "completionTokens") =>
    steps.some((s) => s[key] !== undefined) ? steps.reduce((n, s) => n + (s[key] ?? 0), 0) : undefined;
  const subagents = segments.flatMap((s) =>
    s.steps.flatMap((st) => (st.observation?.results ?? []).flatMap((r) => r.subagent_trajectory_ref ?? [])),
  );
  const model = head.agent.model_name ?? head.steps.find((s) => s.model_name)?.model_name ?? undefined;

  return {
    id: atifId(head),
    steps,
    agent: head.agent.name,
    model: model || undefined,
    inputTokens: nonNegativeInt(metrics?.total_prompt_tokens) ?? sum("promptTokens"),
    outputTokens: nonNegativeInt(metrics?.total_completion_tokens) ?? sum("completionTokens"),
    startedAt: stamped[0]?.timestamp,
    endedAt: stamped.at(-1)?.timestamp,
    fork: forkOf(head),
    metadata: {
      atif: {
        schemaVersion: head.schema_version,
        ...(head.session_id ? { sessionId: head.session_id } : {}),
        ...(head.trajectory_id ? { trajectoryId: head.trajectory_id } : {}),
        ...(head.agent.version ? { agentVersion: head.agent.version } : {}),
        ...(segments.length > 1 ? { segments: segments.length } : {}),
        ...(last.final_metrics?.total_cost_usd != null ? { costUsd: last.final_metrics.total_cost_usd } : {}),
      },
      ...(subagents.length
        ? { subagents: subagents.map((r) => r.trajectory_id ?? r.trajectory_path ?? r.session_id).filter(Boolean) }
        : {}),
      ...(head.notes ? { notes: head.notes } : {}),
      ...(head.agent.tool_definitions?.length ? { tools: head.agent.tool_definitions } : {}),
    },
  };
}

function forkOf(doc: AtifDocument): TrajectoryDraft["fork"] {
  const parsed = forkExtraSchema.safeParse(doc.extra);
  if (!parsed.success) return undefined;
  const parentId = atifId(parsed.data.forked_from);
  if (!parentId) return undefined;
  return {
    parentId,
    stepIndex: parsed.data.forked_from.step_id - 1,
    ...(parsed.data.attempt != null ? { attemptIndex: parsed.data.attempt } : {}),
  };
}

/** Validate a parsed JSON value as ATIF; the issue names the file and the first bad field. */
export function parseAtif(
  value: unknown,
  file: string,
  prefix = "",
): { ok: true; doc: AtifDocument } | { ok: false; record: ImportRecord } {
  const parsed = atifDocumentSchema.safeParse(value);
  return parsed.success ? { ok: true, doc: parsed.data } : { ok: false, record: schemaIssue(parsed.error, file, undefined, prefix) };
}

const MAX_SEGMENTS = 100;

/**
 * Where a continuation file is: next to the head file, as named; when files were renamed with a common prefix
 * (`<prefix>trajectory.json` → `<prefix>trajectory.cont-1.json`), with that prefix. Refs leaving the folder are refused.
 */
function resolveSegment(headFile: string, ref: string): string | undefined {
  const dir = path.dirname(headFile);
  const target = path.resolve(dir, ref);
  if (path.isAbsolute(ref) || !target.startsWith(dir + path.sep)) return undefined;
  const headName = path.basename(headFile).replace(/\.gz$/i, "");
  const prefix = headName.endsWith("trajectory.json") ? headName.slice(0, -"trajectory.json".length) : "";
  const candidates = [target, prefix ? path.join(path.dirname(target), prefix + path.basename(ref)) : undefined].filter(
    (c): c is string => !!c,
  );
  return candidates.flatMap((c) => [c, `${c}.gz`]).find(exists);
}

/**
 * Follow `continued_trajectory_ref` from a parsed head: the segments in order, and issues for a missing or invalid
 * segment (the segments read so far are still returned, so the head is not lost).
 */
export async function readContinuations(
  head: AtifDocument,
  headFile: string,
  headDisplay: string,
): Promise<{ segments: AtifDocument[]; files: string[]; issues: ImportRecord[] }> {
  const segments = [head];
  const files = [path.resolve(headFile)];
  const seen = new Set([path.resolve(headFile)]);
  let current = head;
  let currentFile = headFile;
  let currentDisplay = headDisplay;
  while (current.continued_trajectory_ref && segments.length < MAX_SEGMENTS) {
    const ref = current.continued_trajectory_ref;
    const next = resolveSegment(headFile, ref);
    if (!next)
      return {
        segments,
        files,
        issues: [
          warning(
            currentDisplay,
            `continuation ${ref} not found next to this file; imported ${segments.length} segment(s) only`,
            undefined,
            "continued_trajectory_ref",
          ),
        ],
      };
    if (seen.has(next))
      return {
        segments,
        files,
        issues: [warning(currentDisplay, `continuation ${ref} refers back to an earlier segment`, undefined, "continued_trajectory_ref")],
      };
    seen.add(next);
    const display = path.join(path.dirname(currentDisplay), path.relative(path.dirname(currentFile), next));
    const json = await readJsonFile(next, display);
    if (!json.ok) return { segments, files, issues: [json.record] };
    const parsed = parseAtif(json.value, display);
    if (!parsed.ok) return { segments, files, issues: [parsed.record] };
    segments.push(parsed.doc);
    files.push(next);
    current = parsed.doc;
    currentFile = next;
    currentDisplay = display;
  }
  return { segments, files, issues: [] };
}

/**
 * True for a continuation file (`x.trajectory.cont-2.json`) that the head next to it (`x.trajectory.json`) reaches
 * through `continued_trajectory_ref`: its steps are imported with the head, so it is not read on its own.
 */
export async function isChainedContinuation(file: string): Promise<boolean> {
  const m = /^(.*)\.cont-\d+\.json(?:\.gz)?$/i.exec(path.basename(file));
  if (!m) return false;
  const base = path.join(path.dirname(file), `${m[1]}.json`);
  const head = [base, `${base}.gz`].find(exists);
  if (!head) return false;
  const json = await readJsonFile(head, head);
  const parsed = json.ok ? parseAtif(json.value, head) : undefined;
  if (!parsed?.ok) return false;
  const { files } = await readContinuations(parsed.doc, head, head);
  return files.includes(path.resolve(file));
}

/** `x.trajectory.summarization-1-summary.json` → its parent `x.trajectory.json`, when present. */
export function subagentParentFile(file: string): string | undefined {
  const m = /^(.*)\.summarization-\d+-[\w-]+\.json(?:\.gz)?$/i.exec(path.basename(file));
  if (!m) return undefined;
  const base = path.join(path.dirname(file), `${m[1]}.json`);
  return [base, `${base}.gz`].find(exists);
}

export function isSubagentFile(file: string): boolean {
  return /\.summarization-\d+-[\w-]+\.json(?:\.gz)?$/i.test(path.basename(file));
}

export function runName(agent: string, model: string | undefined): string {
  return model ? `${agent}/${model}` : agent;
}
