// mini-swe-agent `.traj.json` (formats.md §8): an object {info, messages, trajectory_format}, or in older versions a
// bare array of chat messages. Text mode: the action is the one bash block of an assistant message and the next
// user message is `<returncode>N</returncode><output>…</output>`. Tool-call models use tool_calls + role "tool".
import { z } from "zod";
import type { ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, fileStem, readPythonJson, runNameFor, tokenTotals, type ChatTurn } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { baseName, contentText, nonNegativeInt, normalized, schemaIssue } from "./util.ts";

const FORMAT = "mini-swe-agent";

const usageSchema = z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() });

const messageSchema = z.object({
  role: z.string(),
  content: z.unknown().optional(),
  tool_calls: z
    .array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.unknown().optional() }) }))
    .nullish(),
  tool_call_id: z.string().nullish(),
  extra: z
    .object({
      response: z.object({ model: z.string().nullish(), usage: usageSchema.nullish() }).nullish(),
      returncode: z.number().nullish(),
      // On v2's closing {"role": "exit"} message (the agent's InterruptAgentFlow), the same values as info.
      exit_status: z.string().nullish(),
      submission: z.string().nullish(),
    })
    .nullish(),
});
type Message = z.infer<typeof messageSchema>;

const infoSchema = z.object({
  exit_status: z.string().nullish(),
  submission: z.string().nullish(),
  model_stats: z.object({ instance_cost: z.number().nullish(), api_calls: z.number().nullish() }).nullish(),
  mini_version: z.string().nullish(),
  config: z.object({ model: z.object({ model_name: z.string().nullish() }).nullish() }).nullish(),
});

const objectFormSchema = z.object({
  info: infoSchema.nullish(),
  messages: z.array(messageSchema),
  trajectory_format: z.string().nullish(),
});
const arrayFormSchema = z.array(messageSchema);
type MiniSweAgentFile = z.infer<typeof objectFormSchema> | z.infer<typeof arrayFormSchema>;

// The action block: ```bash, ```sh or mini-swe-agent's own ```mswea_bash_command fence.
const BASH_BLOCK = /```(?:bash|sh|shell|mswea_bash_command)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;

/** The command of a text-mode reply. mini-swe-agent runs a reply only with exactly one block (else: format error). */
export function bashAction(text: string): string | undefined {
  const blocks = [...text.matchAll(BASH_BLOCK)];
  return blocks.length === 1 ? blocks[0]?.[1] : undefined;
}

/** `<returncode>N</returncode><output>…</output>` → output text and exit code; other text is kept whole. */
export function parseMiniObservation(text: string): { observation: string; exitCode?: number } {
  const rc = /^\s*<returncode>\s*(-?\d+)\s*<\/returncode>\s*/.exec(text);
  if (!rc) return { observation: text };
  const rest = text.slice(rc[0].length);
  const out = /^<output>\r?\n?([\s\S]*?)\r?\n?<\/output>\s*$/.exec(rest);
  return { observation: out ? (out[1] ?? "") : rest, exitCode: Number(rc[1]) };
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function toTurn(m: Message): ChatTurn {
  const text = contentText(m.content) ?? "";
  if (m.role === "assistant") {
    const toolCalls: ToolCall[] | undefined = m.tool_calls?.map((c) => ({
      id: c.id ?? undefined,
      name: c.function.name,
      arguments: parseArguments(c.function.arguments),
    }));
    const usage = m.extra?.response?.usage;
    return {
      role: "assistant",
      text,
      action: toolCalls?.length ? undefined : bashAction(text),
      toolCalls,
      promptTokens: nonNegativeInt(usage?.prompt_tokens),
      completionTokens: nonNegativeInt(usage?.completion_tokens),
    };
  }
  if (m.role === "tool") return { role: "tool", text, toolCallId: m.tool_call_id ?? undefined, exitCode: m.extra?.returncode ?? undefined };
  return { role: m.role === "system" ? "system" : "user", text };
}

// "Please solve this issue: <task>\n\nYou can execute bash commands…" is the default instance template.
function instructionOf(firstUser: string | undefined): string | undefined {
  if (!firstUser) return undefined;
  const m = /^Please solve this issue:\s*([\s\S]*?)\n\s*\nYou can execute bash commands/.exec(firstUser);
  return (m?.[1] ?? firstUser).trim() || undefined;
}

function toDraft(file: MiniSweAgentFile, displayPath: string, options: ReadOptions): TrajectoryDraft {
  const all = Array.isArray(file) ? file : file.messages;
  const info = Array.isArray(file) ? undefined : file.info;
  // v2 (trajectory_format mini-swe-agent-1.1) ends with {"role": "exit", content: submission, extra: {exit_status,
  // submission}}: a record of why the run stopped, not a turn — read as a user turn it would become a fake observation.
  const exit = all.findLast((m) => m.role === "exit");
  const messages = all.filter((m) => m.role !== "exit");
  const turns = messages.map(toTurn);
  const steps = chatToSteps(turns, { userTurnIsObservation: true, parseObservation: parseMiniObservation });
  const model =
    info?.config?.model?.model_name ?? messages.map((m) => m.extra?.response?.model).find((x) => typeof x === "string") ?? undefined;
  const taskId = fileStem(displayPath, [".traj.json", ".json"]);
  const exitStatus = info?.exit_status ?? exit?.extra?.exit_status ?? undefined;
  return {
    task: {
      benchmark: /^[\w.-]+__[\w.-]+-\d+$/.test(taskId) ? "swe-bench" : "unknown",
      id: taskId,
      instruction: instructionOf(turns.find((t) => t.role === "user")?.text),
    },
    run: { name: runNameFor(options, "mini-swe-agent", model), model, agent: "mini-swe-agent", source: "mini-swe-agent" },
    // "Submitted" only means the agent stopped; whether the patch is right needs a separate evaluation.
    outcome: "unknown",
    failureMode: exitStatus && exitStatus !== "Submitted" ? exitStatus : undefined,
    ...tokenTotals(steps),
    steps,
    metadata: {
      exitStatus,
      submission: info?.submission ?? exit?.extra?.submission ?? undefined,
      instanceCost: info?.model_stats?.instance_cost ?? undefined,
      apiCalls: info?.model_stats?.api_calls ?? undefined,
      miniVersion: info?.mini_version ?? undefined,
      trajectoryFormat: Array.isArray(file) ? undefined : (file.trajectory_format ?? undefined),
    },
  };
}

export const miniSweAgentImporter: Importer = {
  format: FORMAT,
  label: "mini-swe-agent .traj.json",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(head)) return 0.98;
    const name = baseName(source.path);
    // trajectory_format is the last key: in big files only `info` (first) is within the head.
    if (head.startsWith("{") && /"mini_version"\s*:/.test(head)) return 0.9;
    if (name.endsWith(".traj.json") && /^\{\s*"info"\s*:\s*\{/.test(head)) return 0.8;
    const chat = /^\[\s*\{\s*"role"\s*:/.test(head);
    const textMode = /<returncode>|mswea_bash_command/.test(head);
    if (chat && textMode) return name.endsWith(".traj.json") ? 0.95 : 0.8;
    return chat && name.endsWith(".traj.json") ? 0.6 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const doc = await readPythonJson(source);
    if (!doc.ok) return yield doc.record;
    // Picking the schema by shape keeps error paths specific (a union would only say "invalid input").
    const parsed = Array.isArray(doc.value) ? arrayFormSchema.safeParse(doc.value) : objectFormSchema.safeParse(doc.value);
    if (!parsed.success) return yield schemaIssue(parsed.error, source.displayPath);
    yield normalized(toDraft(parsed.data, source.displayPath, options), FORMAT, source.displayPath);
  },
};
