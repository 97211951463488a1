// TRL / transformers conversational prompt-completion JSONL: `prompt` (everything before the first trained assistant
// turn: the task and, for a recovery segment, the failed context) and `completion` (the rest), both lists of
// messages, plus a `tools` column. Tool-call `arguments` are objects (chat templates iterate over them); tool results
// name the function they answer. SFTTrainer's completion-only loss then trains only the recovery.
import type { ExportOptions } from "./chat/options.ts";
import { chatRow, foldContext } from "./chat/row.ts";
import { ChatStats } from "./chat/stats.ts";
import type { Turn } from "./chat/turns.ts";
import { functionTools } from "./openai.ts";
import type { ExportItem, RowWriter } from "./types.ts";

function message(t: Turn): Record<string, unknown> {
  if (t.role === "assistant") {
    const calls = t.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
    return { role: "assistant", content: t.content, ...(calls ? { tool_calls: calls } : {}) };
  }
  if (t.role === "tool") return { role: "tool", name: t.toolName, tool_call_id: t.toolCallId, content: t.content };
  return { role: t.role, content: t.content };
}

export function toTrlRow(e: ExportItem, o: ExportOptions, stats: ChatStats): Record<string, unknown> | null {
  const row = chatRow(e, o, stats);
  if (!row) return null;
  const turns = o.context === "prompt" ? foldContext(row.turns) : row.turns;
  const split = turns.findIndex((t) => t.role === "assistant" && t.train);
  return { prompt: turns.slice(0, split).map(message), completion: turns.slice(split).map(message), tools: functionTools(row.tools) };
}

export function createTrlWriter(options: ExportOptions): RowWriter {
  const stats = new ChatStats();
  return {
    format: "trl",
    extension: "jsonl",
    contentType: "application/x-ndjson",
    chat: { options, stats },
    lines(e) {
      const row = toTrlRow(e, options, stats);
      return row ? [JSON.stringify(row) + "\n"] : [];
    },
  };
}
