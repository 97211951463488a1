// OpenAI fine-tuning chat JSONL: each line holds only `messages`, `tools` and `parallel_tool_calls` (the format has
// nothing else; provenance goes to the `.provenance.jsonl` sidecar, line for line). Arguments are JSON strings, each
// tool message answers a call by `tool_call_id`, and assistant turns carry `weight` 1 (trained) or 0 (the failed
// context of a recovery segment).
import type { ExportOptions } from "./chat/options.ts";
import { chatRow, foldContext } from "./chat/row.ts";
import { ChatStats } from "./chat/stats.ts";
import type { ToolDef } from "./chat/tools.ts";
import type { Turn } from "./chat/turns.ts";
import type { ExportItem, RowWriter } from "./types.ts";

/** The function list every chat format declares (OpenAI's shape; TRL and axolotl take the same). */
export const functionTools = (tools: ToolDef[]) =>
  tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));

function message(t: Turn): Record<string, unknown> {
  if (t.role === "assistant") {
    const calls = t.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
    // An assistant turn that only calls tools has no content (OpenAI's own examples omit it).
    return {
      role: "assistant",
      ...(t.content || !calls ? { content: t.content } : {}),
      ...(calls ? { tool_calls: calls } : {}),
      weight: t.train ? 1 : 0,
    };
  }
  if (t.role === "tool") return { role: "tool", tool_call_id: t.toolCallId, content: t.content };
  return { role: t.role, content: t.content };
}

export function toOpenAiRow(e: ExportItem, o: ExportOptions, stats: ChatStats): Record<string, unknown> | null {
  const row = chatRow(e, o, stats);
  if (!row) return null;
  const turns = o.context === "prompt" ? foldContext(row.turns) : row.turns;
  const messages = turns.map(message);
  if (!row.tools.length) return { messages };
  return { messages, tools: functionTools(row.tools), parallel_tool_calls: turns.some((t) => (t.toolCalls?.length ?? 0) > 1) };
}

export function createOpenAiWriter(options: ExportOptions): RowWriter {
  const stats = new ChatStats();
  return {
    format: "openai",
    extension: "jsonl",
    contentType: "application/x-ndjson",
    chat: { options, stats },
    lines(e) {
      const row = toOpenAiRow(e, options, stats);
      return row ? [JSON.stringify(row) + "\n"] : [];
    },
  };
}
