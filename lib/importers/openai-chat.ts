// OpenAI chat fine-tuning JSONL (formats.md §11): one example per line with `messages` (system/user/assistant/tool),
// optional `tools`, assistant `tool_calls` whose arguments are a JSON *string*, and tool messages answering a call
// by id. Each line is one trajectory; its id is derived from the line's content, so re-importing is a no-op.
import { z } from "zod";
import { sha256 } from "../domain/hash.ts";
import type { ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, invalidJson, isRawRecord, readRecords, type ChatTurn, type RawRecord } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { contentText, isRecord, issue, normalized, schemaIssue } from "./util.ts";

const FORMAT = "openai-chat";

const functionCallSchema = z.object({ name: z.string(), arguments: z.string() });

const messageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  tool_calls: z.array(z.object({ id: z.string().nullish(), type: z.string().nullish(), function: functionCallSchema })).nullish(),
  // Legacy single-function format.
  function_call: functionCallSchema.nullish(),
  tool_call_id: z.string().nullish(),
  weight: z.number().nullish(),
  // The assistant declined: Chat Completions puts the text here (content null) or in a {type: "refusal"} part.
  refusal: z.string().nullish(),
});
type Message = z.infer<typeof messageSchema>;

const exampleSchema = z.object({
  messages: z.array(messageSchema).min(1),
  tools: z.array(z.unknown()).nullish(),
  functions: z.array(z.unknown()).nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type Example = z.infer<typeof exampleSchema>;

type Parsed<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

function parseArguments(text: string, path: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, path, message: invalidJson(e) };
  }
}

function toolCallsOf(m: Message, index: number): Parsed<ToolCall[] | undefined> {
  const raw = m.tool_calls?.map((c, j) => ({
    id: c.id ?? undefined,
    fn: c.function,
    path: `messages[${index}].tool_calls[${j}].function.arguments`,
  }));
  const calls =
    raw ?? (m.function_call ? [{ id: undefined, fn: m.function_call, path: `messages[${index}].function_call.arguments` }] : []);
  const out: ToolCall[] = [];
  for (const c of calls) {
    const args = parseArguments(c.fn.arguments, c.path);
    if (!args.ok) return args;
    out.push({ id: c.id, name: c.fn.name, arguments: args.value });
  }
  return { ok: true, value: out.length ? out : undefined };
}

/** Message text; refusal parts and the message-level refusal keep their words (contentText alone shows "[refusal]"). */
function messageText(m: Message): string | undefined {
  const parts = Array.isArray(m.content)
    ? m.content.map((p) =>
        isRecord(p) && p.type === "refusal" && typeof p.refusal === "string" ? { type: "text", text: `Refusal: ${p.refusal}` } : p,
      )
    : m.content;
  const text = contentText(parts) ?? undefined;
  const refusal = m.refusal?.trim() ? `Refusal: ${m.refusal}` : undefined;
  return [text, refusal].filter(Boolean).join("\n") || undefined;
}

function turnsOf(example: Example): Parsed<ChatTurn[]> {
  const turns: ChatTurn[] = [];
  for (const [i, m] of example.messages.entries()) {
    const text = messageText(m);
    if (m.role === "assistant") {
      const calls = toolCallsOf(m, i);
      if (!calls.ok) return calls;
      turns.push({ role: "assistant", text, toolCalls: calls.value });
    } else if (m.role === "tool" || m.role === "function") {
      turns.push({ role: "tool", text: text ?? "", toolCallId: m.tool_call_id ?? undefined });
    } else {
      turns.push({ role: m.role === "user" ? "user" : "system", text: text ?? "" });
    }
  }
  return { ok: true, value: turns };
}

function metaString(meta: Record<string, unknown> | null | undefined, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = meta?.[k];
    if ((typeof v === "string" && v.trim()) || typeof v === "number") return String(v);
  }
  return undefined;
}

function toRecord(rec: RawRecord, file: string, options: ReadOptions): ImportRecord {
  const parsed = exampleSchema.safeParse(rec.value);
  if (!parsed.success) return schemaIssue(parsed.error, file, rec.line, rec.path);
  const example = parsed.data;
  const turns = turnsOf(example);
  if (!turns.ok) return issue(file, turns.message, rec.line, rec.path ? `${rec.path}.${turns.path}` : turns.path);
  const steps = chatToSteps(turns.value);
  // weight 0 excludes an assistant turn from the loss; kept so an SFT export can round-trip it.
  const agentIndexes = steps.flatMap((s, i) => (s.source === "agent" ? [i] : []));
  const weights = example.messages.filter((m) => m.role === "assistant").map((m) => m.weight);
  const lossMaskedSteps = agentIndexes.filter((_, k) => weights[k] === 0);
  const meta = example.metadata;
  const taskId = metaString(meta, "task_id", "task", "instance_id");
  const draft: TrajectoryDraft = {
    id: `${FORMAT}:${sha256(rec.raw.trim())}`,
    // One shared task for anonymous examples: its instruction would only describe whichever example came first.
    task: {
      benchmark: metaString(meta, "benchmark") ?? "unknown",
      id: taskId ?? "sft-example",
      instruction: taskId ? steps.find((s) => s.source === "user")?.message : undefined,
    },
    run: { name: options.runName ?? file.split("/").pop() ?? file, model: metaString(meta, "model"), source: FORMAT },
    outcome: "unknown",
    steps,
    metadata: {
      ...(meta ?? {}),
      tools: example.tools ?? example.functions ?? undefined,
      parallelToolCalls: example.parallel_tool_calls ?? undefined,
      lossMaskedSteps: lossMaskedSteps.length ? lossMaskedSteps : undefined,
    },
  };
  return normalized(draft, FORMAT, `${file}${rec.path}`, rec.line);
}

/** The first line of the head as JSON, when it is complete and parses. */
function firstLine(head: string): unknown {
  const trimmed = head.trimStart();
  const end = trimmed.indexOf("\n");
  try {
    return JSON.parse(end === -1 ? trimmed : trimmed.slice(0, end));
  } catch {
    return undefined;
  }
}

export const openAiChatImporter: Importer = {
  format: FORMAT,
  label: "OpenAI chat fine-tuning JSONL",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    const jsonl = source.path.toLowerCase().replace(/\.gz$/, "").endsWith(".jsonl");
    const first = firstLine(head);
    if (isRecord(first)) {
      // Whole-trajectory formats also have `messages` (mini-swe-agent, native): they carry these keys.
      if (["info", "trajectory_format", "eval", "format", "sessionId", "conversations"].some((k) => k in first)) return 0;
      const messages = first.messages;
      const chat = Array.isArray(messages) && messages.length > 0 && messages.every((m) => isRecord(m) && typeof m.role === "string");
      return chat ? (jsonl ? 0.9 : 0.75) : 0;
    }
    // A first line longer than the head: judge by its opening.
    if (/^\{\s*"messages"\s*:\s*\[\s*\{\s*"(?:role|content)"\s*:/.test(head)) return 0.7;
    if (
      jsonl &&
      head.startsWith("{") &&
      /"messages"\s*:\s*\[\s*\{\s*"(?:role|content)"\s*:/.test(head) &&
      !/"(?:info|trajectory_format|format|conversations)"\s*:/.test(head)
    )
      return 0.6;
    return /^\[\s*\{\s*"messages"\s*:\s*\[\s*\{\s*"(?:role|content)"\s*:/.test(head) ? 0.6 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    for await (const rec of readRecords(source)) {
      yield isRawRecord(rec) ? toRecord(rec, source.displayPath, options) : rec;
    }
  },
};
