// LLaMA-Factory ShareGPT JSONL: `conversations` of {from, value} in strict alternation — human/observation at odd
// positions, gpt/function_call at even ones, ending on gpt/function_call — plus `system` and `tools` (a JSON string).
// A function_call's value is `{"name", "arguments"}` (a list for parallel calls), preceded by the assistant's words
// as `<think>…</think>`, which LLaMA-Factory's function formatter keeps in front of the call. Consecutive inputs are
// joined and a call without a recorded result gets an empty observation, so the positions always hold. LLaMA-Factory
// has no per-turn loss mask: by default the failed context is folded into the first human turn (context: prompt).
import type { ExportOptions } from "./chat/options.ts";
import { chatRow, foldContext } from "./chat/row.ts";
import { ChatStats } from "./chat/stats.ts";
import type { Turn } from "./chat/turns.ts";
import type { ExportItem, RowWriter } from "./types.ts";

type From = "human" | "gpt" | "function_call" | "observation";
interface Entry {
  from: From;
  value: string;
}

export const THOUGHT_OPEN = "<think>";
export const THOUGHT_CLOSE = "</think>";

const callJson = (t: Turn) => {
  const calls = t.toolCalls!.map((c) => ({ name: c.name, arguments: c.args }));
  return JSON.stringify(calls.length === 1 ? calls[0] : calls);
};
const thought = (text: string) => (text ? `${THOUGHT_OPEN}${text}${THOUGHT_CLOSE}` : "");

export function shareGptConversation(turns: Turn[]): { conversations: Entry[]; system: string } {
  const conv: Entry[] = [];
  const system: string[] = [];
  const input = (from: "human" | "observation", value: string) => {
    const last = conv.at(-1);
    // An input right after another input joins it: the positions must alternate.
    if (conv.length % 2 === 1 && last) last.value = last.value ? (value ? `${last.value}\n\n${value}` : last.value) : value;
    else conv.push({ from, value });
  };
  for (const t of turns) {
    if (t.role === "system") system.push(t.content);
    else if (t.role === "user") input("human", t.content);
    else if (t.role === "tool") input("observation", t.content);
    else {
      const last = conv.at(-1);
      if (conv.length % 2 === 0) {
        if (!last) conv.push({ from: "human", value: "" });
        else if (last.from === "function_call") conv.push({ from: "observation", value: "" });
        else if (!t.toolCalls) {
          // Two answers in a row are one answer.
          last.value = [last.value, t.content].filter((x) => x).join("\n\n");
          continue;
        } else {
          // Words followed by a call: the words become the call's thought.
          conv.pop();
          conv.push({ from: "function_call", value: thought([last.value, t.content].filter((x) => x).join("\n\n")) + callJson(t) });
          continue;
        }
      }
      conv.push(t.toolCalls ? { from: "function_call", value: thought(t.content) + callJson(t) } : { from: "gpt", value: t.content });
    }
  }
  return { conversations: conv, system: system.join("\n\n") };
}

export function toShareGptRow(e: ExportItem, o: ExportOptions, stats: ChatStats): Record<string, unknown> | null {
  const row = chatRow(e, o, stats);
  if (!row) return null;
  const { conversations, system } = shareGptConversation(o.context === "prompt" ? foldContext(row.turns) : row.turns);
  return {
    conversations,
    system,
    tools: JSON.stringify(row.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
  };
}

/** The `dataset_info.json` LLaMA-Factory needs beside the file to load it. */
export function llamaFactoryDatasetInfo(name: string, dataFile: string): string {
  const entry = {
    file_name: dataFile,
    formatting: "sharegpt",
    columns: { messages: "conversations", system: "system", tools: "tools" },
    tags: {
      role_tag: "from",
      content_tag: "value",
      user_tag: "human",
      assistant_tag: "gpt",
      observation_tag: "observation",
      function_tag: "function_call",
      system_tag: "system",
    },
  };
  return JSON.stringify({ [name]: entry }, null, 2) + "\n";
}

export function createShareGptWriter(options: ExportOptions): RowWriter {
  const stats = new ChatStats();
  return {
    format: "sharegpt",
    extension: "jsonl",
    contentType: "application/x-ndjson",
    chat: { options, stats },
    lines(e) {
      const row = toShareGptRow(e, options, stats);
      return row ? [JSON.stringify(row) + "\n"] : [];
    },
  };
}
