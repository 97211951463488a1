// ShareGPT JSONL: {"conversations":[{"from","value"}], "system", "metadata"} per line. Roles follow LLaMA-Factory's
// sharegpt tags (human, gpt, function_call, observation); a terminal command is a function_call whose value is the
// JSON call, its output the observation.
import { z } from "zod";
import { provenanceSchema } from "./provenance.ts";
import { itemTurns } from "./chat-turns.ts";
import type { ExportItem, RowWriter } from "./types.ts";

export const shareGptRowSchema = z.object({
  conversations: z.array(z.object({ from: z.enum(["human", "gpt", "function_call", "observation"]), value: z.string() }).strict()).min(1),
  system: z.string(),
  metadata: z.object({ provenance: provenanceSchema }),
}).strict();
export type ShareGptRow = z.infer<typeof shareGptRowSchema>;

export function toShareGptRow(e: ExportItem): ShareGptRow {
  const conversations: ShareGptRow["conversations"] = [];
  const system: string[] = [];
  for (const t of itemTurns(e)) {
    if (t.role === "system") system.push(t.content);
    else if (t.role === "user") conversations.push({ from: "human", value: t.content });
    else if (t.role === "tool") conversations.push({ from: "observation", value: t.content });
    else {
      if (t.content) conversations.push({ from: "gpt", value: t.content });
      for (const c of t.toolCalls ?? []) conversations.push({ from: "function_call", value: JSON.stringify({ name: c.name, arguments: c.arguments }) });
    }
  }
  return { conversations, system: system.join("\n\n"), metadata: { provenance: e.provenance } };
}

export const shareGptWriter: RowWriter = {
  format: "sharegpt",
  extension: "jsonl",
  contentType: "application/x-ndjson",
  lines: (e) => [JSON.stringify(toShareGptRow(e)) + "\n"],
};
