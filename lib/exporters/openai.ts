// OpenAI-style chat JSONL: {"messages":[…], "tools":[…], "metadata":{"provenance":…}} per line — TRL's
// conversational format, LLaMA-Factory's "openai" format and axolotl's chat_template all load it as is. Context
// messages of a recovery segment carry "weight": 0 (axolotl's per-message loss mask; others ignore the key).
import { z } from "zod";
import { provenanceSchema } from "./provenance.ts";
import { itemTurns, TERMINAL_TOOL } from "./chat-turns.ts";
import type { ExportItem, RowWriter } from "./types.ts";

const toolCallSchema = z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) });

export const openAiMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.enum(["system", "user"]), content: z.string() }).strict(),
  z.object({ role: z.literal("assistant"), content: z.string(), tool_calls: z.array(toolCallSchema).min(1).optional(), weight: z.union([z.literal(0), z.literal(1)]) }).strict(),
  z.object({ role: z.literal("tool"), content: z.string(), tool_call_id: z.string() }).strict(),
]);

export const openAiRowSchema = z.object({
  messages: z.array(openAiMessageSchema).min(1),
  tools: z.array(z.object({ type: z.literal("function"), function: z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }) })),
  metadata: z.object({ provenance: provenanceSchema }),
}).strict();
export type OpenAiRow = z.infer<typeof openAiRowSchema>;

const TERMINAL_TOOL_DEF = {
  type: "function" as const,
  function: {
    name: TERMINAL_TOOL,
    description: "Send keystrokes (commands, one per line) to the terminal and read its output.",
    parameters: { type: "object", properties: { keystrokes: { type: "string" } }, required: ["keystrokes"] },
  },
};

export function toOpenAiRow(e: ExportItem): OpenAiRow {
  const messages = itemTurns(e).map((t) => {
    if (t.role === "assistant") {
      return {
        role: "assistant" as const,
        content: t.content,
        ...(t.toolCalls ? { tool_calls: t.toolCalls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
        weight: t.train ? (1 as const) : (0 as const),
      };
    }
    if (t.role === "tool") return { role: "tool" as const, content: t.content, tool_call_id: t.toolCallId! };
    return { role: t.role, content: t.content };
  });
  const usesTerminal = messages.some((m) => m.role === "assistant" && m.tool_calls?.some((c) => c.function.name === TERMINAL_TOOL));
  return { messages, tools: usesTerminal ? [TERMINAL_TOOL_DEF] : [], metadata: { provenance: e.provenance } };
}

export const openAiWriter: RowWriter = {
  format: "openai",
  extension: "jsonl",
  contentType: "application/x-ndjson",
  lines: (e) => [JSON.stringify(toOpenAiRow(e)) + "\n"],
};
