// ShareGPT (formats.md §11): a JSON array or JSONL of {conversations: [{from, value}], tools?, system?} with
// from ∈ system/human/gpt plus the tool-use extensions function_call (value = JSON {name, arguments}) and
// observation (the tool result). Each record is one trajectory with a content-derived id.
import { z } from "zod";
import { sha256 } from "../domain/hash.ts";
import type { ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, invalidJson, isRawRecord, readRecords, type ChatTurn, type RawRecord } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { issue, normalized, schemaIssue } from "./util.ts";

const FORMAT = "sharegpt";

// Speaker names seen in ShareGPT-style datasets, mapped to chat roles ("call" = the model calling a tool).
const SPEAKER_NAMES = [
  "system",
  "human",
  "user",
  "gpt",
  "assistant",
  "model",
  "function_call",
  "tool_call",
  "observation",
  "tool",
  "function",
] as const;
const SPEAKERS: Record<(typeof SPEAKER_NAMES)[number], "system" | "user" | "assistant" | "call" | "tool"> = {
  system: "system",
  human: "user",
  user: "user",
  gpt: "assistant",
  assistant: "assistant",
  model: "assistant",
  function_call: "call",
  tool_call: "call",
  observation: "tool",
  tool: "tool",
  function: "tool",
};

const recordSchema = z.object({
  conversations: z
    .array(
      z.object({
        from: z.enum(SPEAKER_NAMES),
        value: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
      }),
    )
    .min(1),
  tools: z.union([z.string(), z.array(z.unknown())]).nullish(),
  system: z.string().nullish(),
  task_id: z.union([z.string(), z.number()]).nullish(),
});
type ShareGptRecord = z.infer<typeof recordSchema>;

const callSchema = z.object({ name: z.string(), arguments: z.unknown().optional() });

function jsonOrSelf(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

type Parsed<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

function parseCalls(value: unknown, path: string): Parsed<ToolCall[]> {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch (e) {
      return { ok: false, path, message: invalidJson(e) };
    }
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const calls: ToolCall[] = [];
  for (const [k, item] of list.entries()) {
    const c = callSchema.safeParse(item);
    if (!c.success) {
      const first = c.error.issues[0];
      const where = [Array.isArray(parsed) ? `[${k}]` : "", ...(first?.path ?? []).map(String)].filter(Boolean).join(".");
      return { ok: false, path: where ? `${path}.${where}` : path, message: first?.message ?? "expected {name, arguments}" };
    }
    calls.push({ name: c.data.name, arguments: jsonOrSelf(c.data.arguments) });
  }
  return { ok: true, value: calls };
}

function turnsOf(record: ShareGptRecord): Parsed<ChatTurn[]> {
  const turns: ChatTurn[] = record.system ? [{ role: "system", text: record.system }] : [];
  for (const [j, t] of record.conversations.entries()) {
    const role = SPEAKERS[t.from];
    const text = typeof t.value === "string" ? t.value : JSON.stringify(t.value);
    if (role !== "call") {
      turns.push({ role, text });
      continue;
    }
    const calls = parseCalls(t.value, `conversations[${j}].value`);
    if (!calls.ok) return calls;
    // Some datasets put the model's words in a gpt turn right before its function_call: that is one step.
    const prev = turns.at(-1);
    if (prev?.role === "assistant" && !prev.toolCalls) prev.toolCalls = calls.value;
    else turns.push({ role: "assistant", toolCalls: calls.value });
  }
  return { ok: true, value: turns };
}

function toRecord(rec: RawRecord, file: string, options: ReadOptions): ImportRecord {
  const parsed = recordSchema.safeParse(rec.value);
  if (!parsed.success) return schemaIssue(parsed.error, file, rec.line, rec.path);
  const record = parsed.data;
  const turns = turnsOf(record);
  if (!turns.ok) return issue(file, turns.message, rec.line, rec.path ? `${rec.path}.${turns.path}` : turns.path);
  const steps = chatToSteps(turns.value);
  const taskId = record.task_id !== null && record.task_id !== undefined ? String(record.task_id) : undefined;
  const draft: TrajectoryDraft = {
    id: `${FORMAT}:${sha256(rec.raw.trim())}`,
    task: {
      benchmark: "unknown",
      id: taskId ?? "sft-example",
      instruction: taskId ? steps.find((s) => s.source === "user")?.message : undefined,
    },
    run: { name: options.runName ?? file.split("/").pop() ?? file, source: FORMAT },
    outcome: "unknown",
    steps,
    metadata: { tools: jsonOrSelf(record.tools ?? undefined) },
  };
  return normalized(draft, FORMAT, `${file}${rec.path}`, rec.line);
}

export const shareGptImporter: Importer = {
  format: FORMAT,
  label: "ShareGPT conversations",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (!/^[[{]/.test(head) || !/"conversations"\s*:\s*\[/.test(head)) return 0;
    // Harbor traces rows also have `conversations` (role/content) and may add a ShareGPT copy: theirs, not ours.
    if (/"trial_name"\s*:/.test(head)) return 0.1;
    return /"from"\s*:\s*"(?:human|gpt|system|user)"/.test(head) && /"value"\s*:/.test(head) ? 0.9 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    for await (const rec of readRecords(source)) {
      yield isRawRecord(rec) ? toRecord(rec, source.displayPath, options) : rec;
    }
  },
};
