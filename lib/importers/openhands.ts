// OpenHands event lists (formats.md §9): a JSON array of events, each either an action (`action` + `args`) or an
// observation (`observation` + `content` + `extras`) that names the action it answers in `cause`. Every action
// becomes a step; its observation is folded into that step, so a `run` step carries command, output and exit code.
import { z } from "zod";
import type { StepInput, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { fileStem, readPythonJson, runNameFor, withOffsets } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { isRecord, nonNegativeInt, normalized, schemaIssue, toIso } from "./util.ts";

const FORMAT = "openhands";

const idSchema = z.union([z.number(), z.string()]);
const usageSchema = z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() });

const eventSchema = z.object({
  id: idSchema.nullish(),
  timestamp: z.string().nullish(),
  source: z.string().nullish(),
  message: z.string().nullish(),
  action: z.string().nullish(),
  args: z.record(z.string(), z.unknown()).nullish(),
  observation: z.string().nullish(),
  content: z.string().nullish(),
  extras: z.record(z.string(), z.unknown()).nullish(),
  cause: idSchema.nullish(),
  tool_call_metadata: z
    .object({
      function_name: z.string().nullish(),
      tool_call_id: z.string().nullish(),
      model_response: z
        .object({
          id: z.string().nullish(),
          model: z.string().nullish(),
          choices: z.array(z.object({ message: z.object({ tool_calls: z.array(z.unknown()).nullish() }).nullish() })).nullish(),
          usage: usageSchema.nullish(),
        })
        .nullish(),
    })
    .nullish(),
  llm_metrics: z.object({ accumulated_cost: z.number().nullish(), accumulated_token_usage: usageSchema.nullish() }).nullish(),
});
type OpenHandsEvent = z.infer<typeof eventSchema>;
const eventsSchema = z.array(eventSchema);

// Bookkeeping events that are not part of what the agent did or saw.
const SKIPPED_ACTIONS = new Set(["change_agent_state", "null"]);
const SKIPPED_OBSERVATIONS = new Set(["agent_state_changed", "null"]);

const rawToolCallSchema = z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.string().nullish() }) });

/** The LLM tool call behind an action, with its arguments parsed from the raw model response. */
function toolCallOf(e: OpenHandsEvent): ToolCall | undefined {
  const meta = e.tool_call_metadata;
  if (!meta?.function_name) return undefined;
  const raw = meta.model_response?.choices?.flatMap((c) => c.message?.tool_calls ?? []) ?? [];
  const match = raw.map((c) => rawToolCallSchema.safeParse(c)).find((p) => p.success && p.data.id === meta.tool_call_id);
  let args: unknown;
  try {
    args = match?.success && match.data.function.arguments ? JSON.parse(match.data.function.arguments) : undefined;
  } catch {
    args = match?.success ? match.data.function.arguments : undefined;
  }
  return { id: meta.tool_call_id ?? undefined, name: meta.function_name, arguments: args };
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v : undefined;
}

/** What the agent typed or did, readable: the command for run actions, "<action> <path|url>" for the others. */
function actionText(e: OpenHandsEvent): string | undefined {
  const args = e.args ?? {};
  if (e.action === "run") return text(args.command);
  if (e.action === "run_ipython") return text(args.code);
  const target = text(args.path) ?? text(args.url);
  if (["read", "edit", "write", "browse", "browse_interactive"].includes(e.action ?? ""))
    return target ? `${e.action} ${target}` : (e.action ?? undefined);
  return undefined;
}

function stepOfAction(e: OpenHandsEvent, seenResponses: Set<string>): StepInput {
  const args = e.args ?? {};
  const timestamp = toIso(e.timestamp);
  if (e.action === "system" || e.action === "recall")
    return { source: "system", timestamp, message: text(args.content) ?? e.message ?? "" };
  if (e.source === "user" || e.source === "environment")
    return { source: e.source === "user" ? "user" : "system", timestamp, message: text(args.content) ?? e.message ?? "" };
  // Several actions can come from one LLM response; its token usage is counted once, on the first of them.
  const response = e.tool_call_metadata?.model_response;
  const fresh = response?.id ? !seenResponses.has(response.id) : true;
  if (response?.id) seenResponses.add(response.id);
  const toolCall = toolCallOf(e);
  const isMessage = e.action === "message" || e.action === "finish";
  const message = isMessage ? (text(args.final_thought) ?? text(args.content) ?? text(e.message)) : undefined;
  const thought = text(args.thought);
  return {
    source: "agent",
    timestamp,
    message,
    reasoning: thought !== message ? thought : undefined,
    action: actionText(e),
    toolCalls: toolCall ? [toolCall] : undefined,
    promptTokens: fresh ? nonNegativeInt(response?.usage?.prompt_tokens) : undefined,
    completionTokens: fresh ? nonNegativeInt(response?.usage?.completion_tokens) : undefined,
  };
}

// Exit code of a command observation: `extras.metadata.exit_code` (CmdOutputMetadata), or `extras.exit_code` in
// event streams written before OpenHands PR #4881 (its own deserializer still upgrades that key). -1 is
// CmdOutputMetadata's default, "no exit code captured" (still running, timed out, no PS1), which OpenHands itself
// does not show as an exit code — recording it as one would mark the step as a failed command.
function exitCodeOf(e: OpenHandsEvent): number | undefined {
  const code =
    isRecord(e.extras?.metadata) && e.extras.metadata.exit_code !== undefined ? e.extras.metadata.exit_code : e.extras?.exit_code;
  return typeof code === "number" && Number.isInteger(code) && code !== -1 ? code : undefined;
}

function toDraft(events: OpenHandsEvent[], displayPath: string, options: ReadOptions): TrajectoryDraft {
  const steps: StepInput[] = [];
  const byActionId = new Map<string, StepInput>();
  const seenResponses = new Set<string>();
  let agentState: string | undefined;
  for (const e of events) {
    if (e.action && !SKIPPED_ACTIONS.has(e.action)) {
      const step = stepOfAction(e, seenResponses);
      steps.push(step);
      if (e.id !== null && e.id !== undefined) byActionId.set(String(e.id), step);
    } else if (e.observation === "agent_state_changed" && typeof e.extras?.agent_state === "string") {
      agentState = e.extras.agent_state;
    } else if (e.observation && !SKIPPED_OBSERVATIONS.has(e.observation)) {
      const target = e.cause !== null && e.cause !== undefined ? byActionId.get(String(e.cause)) : undefined;
      const content = e.content ?? e.message ?? "";
      if (target) {
        target.observation = target.observation === undefined ? content : `${target.observation}\n${content}`;
        target.exitCode ??= exitCodeOf(e);
      } else {
        // Observations without a cause (e.g. errors raised by the runtime) stand on their own.
        steps.push({ source: "tool", timestamp: toIso(e.timestamp), observation: content, exitCode: exitCodeOf(e) });
      }
    }
  }
  withOffsets(steps);
  const model = events.map((e) => e.tool_call_metadata?.model_response?.model).find((m) => typeof m === "string") ?? undefined;
  const usage = events.findLast((e) => e.llm_metrics?.accumulated_token_usage)?.llm_metrics;
  const firstUser = steps.find((s) => s.source === "user")?.message;
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== undefined);
  return {
    task: { benchmark: "unknown", id: fileStem(displayPath, [".json"]), instruction: firstUser || undefined },
    run: { name: runNameFor(options, "openhands", model), model, agent: "openhands", source: "openhands" },
    outcome: "unknown",
    failureMode: agentState === "error" || agentState === "stuck" ? `agent_state:${agentState}` : undefined,
    startedAt: stamps[0],
    endedAt: stamps.at(-1),
    inputTokens: nonNegativeInt(usage?.accumulated_token_usage?.prompt_tokens),
    outputTokens: nonNegativeInt(usage?.accumulated_token_usage?.completion_tokens),
    steps,
    metadata: {
      finished: events.some((e) => e.action === "finish"),
      finalAgentState: agentState,
      costUsd: usage?.accumulated_cost ?? undefined,
      eventCount: events.length,
    },
  };
}

export const openHandsImporter: Importer = {
  format: FORMAT,
  label: "OpenHands event list",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (!/^\[\s*\{/.test(head)) return 0;
    // Events carry a source and an action or observation, plus OpenHands' own args/extras/tool_call_metadata
    // (native trajectory steps also have source + action, but none of those).
    const eventish = /"(?:action|observation)"\s*:\s*"/.test(head) && /"source"\s*:\s*"(?:agent|user|environment)"/.test(head);
    const openHandsKeys = /"args"\s*:\s*\{|"extras"\s*:\s*\{|"tool_call_metadata"\s*:/.test(head);
    if (!eventish || !openHandsKeys || /"steps"\s*:|"conversations"\s*:/.test(head)) return 0;
    return /^\[\s*\{\s*"id"\s*:\s*\d/.test(head) ? 0.9 : 0.7;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const doc = await readPythonJson(source);
    if (!doc.ok) return yield doc.record;
    const parsed = eventsSchema.safeParse(doc.value);
    if (!parsed.success) return yield schemaIssue(parsed.error, source.displayPath);
    if (!parsed.data.some((e) => e.action))
      return yield { ok: false, issue: { file: source.displayPath, message: "no action events: not an OpenHands trajectory" } };
    yield normalized(toDraft(parsed.data, source.displayPath, options), FORMAT, source.displayPath);
  },
};
