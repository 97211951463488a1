// axolotl `type: chat_template`, from its docs/dataset-formats/conversation.qmd: rows hold `messages` of {role,
// content}; with `message_field_training: train` a boolean on each message says whether it is trained. Tool calls
// follow the chat-template convention (`tool_calls[].function.arguments` an object) with the row's `tools`.
import { checkArguments, checkDeclaration, hasEscape, isObject, type Problems } from "./json-schema.ts";
import type { MaskFacts } from "./openai.ts";

export function checkAxolotlLine(line: string, mask?: MaskFacts): Problems {
  const out: Problems = [];
  const row = JSON.parse(line) as unknown;
  if (!isObject(row)) return ["a line must be a JSON object"];
  if (hasEscape(row)) out.push("holds terminal escape bytes");
  const decls = new Map<string, Record<string, unknown>>();
  for (const [i, t] of (Array.isArray(row.tools) ? row.tools : []).entries()) {
    const fn = isObject(t) && isObject(t.function) ? t.function : t;
    const name = checkDeclaration(fn, `tools[${i}]`, out);
    if (name) decls.set(name, fn as Record<string, unknown>);
  }
  const messages = row.messages;
  if (!Array.isArray(messages) || !messages.length) return [...out, "messages must be a non-empty list"];
  let trained = 0;
  let masked = 0;
  for (const [i, m] of messages.entries()) {
    const at = `messages[${i}]`;
    if (!isObject(m) || typeof m.role !== "string" || typeof m.content !== "string") {
      out.push(`${at}: needs string role and content`);
      continue;
    }
    if (typeof m.train !== "boolean") out.push(`${at}: train must be a boolean`);
    if (m.train === true && m.role !== "assistant") out.push(`${at}: a ${m.role} message is trained`);
    if (m.role === "assistant" && m.train) trained++;
    else if (m.role === "assistant") masked++;
    for (const [k, c] of (Array.isArray(m.tool_calls) ? m.tool_calls : []).entries()) {
      const w = `${at}.tool_calls[${k}]`;
      if (!isObject(c) || !isObject(c.function) || typeof c.function.name !== "string") {
        out.push(`${w}: needs function.name`);
        continue;
      }
      if (typeof c.function.arguments === "string") {
        out.push(`${w}: arguments must be an object`);
        continue;
      }
      checkArguments(c.function.arguments, decls.get(c.function.name), w, out);
    }
  }
  const last = messages.at(-1);
  if (!isObject(last) || last.role !== "assistant" || last.train !== true)
    out.push("the conversation must end on a trained assistant message");
  if (mask && trained > mask.recoveryAgentSteps)
    out.push(`${trained} trained assistant messages, but the recovery has ${mask.recoveryAgentSteps} agent steps`);
  if (mask && mask.contextAgentSteps > 0 && !masked) out.push("the failed context has no train: false assistant message");
  return out;
}
