// axolotl `type: chat_template` JSONL: `messages` with a boolean `train` on every message (set
// `message_field_training: train`): the failed context and every user/tool message false, the recovery's assistant
// turns true. Tool calls carry object arguments and the row a `tools` list, as axolotl's chat templates take them.
import type { ExportOptions } from "./chat/options.ts";
import { chatRow, foldContext } from "./chat/row.ts";
import { ChatStats } from "./chat/stats.ts";
import type { Turn } from "./chat/turns.ts";
import { functionTools } from "./openai.ts";
import type { ExportItem, RowWriter } from "./types.ts";

function message(t: Turn): Record<string, unknown> {
  const train = t.role === "assistant" && t.train;
  if (t.role === "assistant") {
    const calls = t.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
    return { role: "assistant", content: t.content, ...(calls ? { tool_calls: calls } : {}), train };
  }
  if (t.role === "tool") return { role: "tool", name: t.toolName, tool_call_id: t.toolCallId, content: t.content, train };
  return { role: t.role, content: t.content, train };
}

export function toAxolotlRow(e: ExportItem, o: ExportOptions, stats: ChatStats): Record<string, unknown> | null {
  const row = chatRow(e, o, stats);
  if (!row) return null;
  const turns = o.context === "prompt" ? foldContext(row.turns) : row.turns;
  return { messages: turns.map(message), tools: functionTools(row.tools) };
}

export function createAxolotlWriter(options: ExportOptions): RowWriter {
  const stats = new ChatStats();
  return {
    format: "axolotl",
    extension: "jsonl",
    contentType: "application/x-ndjson",
    chat: { options, stats },
    lines(e) {
      const row = toAxolotlRow(e, options, stats);
      return row ? [JSON.stringify(row) + "\n"] : [];
    },
  };
}
