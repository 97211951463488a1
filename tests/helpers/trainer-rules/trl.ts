// TRL SFTTrainer conversational rows, from TRL's "dataset formats" and SFT docs and transformers' chat_extras (tool
// use): `messages`, or `prompt` + `completion` (lists of {role, content} messages), and a `tools` column of function
// schemas. In a tool call `arguments` is an object (templates iterate over it); a tool result is {role: "tool",
// name, content}. Completion-only loss trains the completion: it must start with and end on the assistant, and for a
// recovery segment hold no more assistant turns than the recovery has.
import { checkArguments, checkDeclaration, hasEscape, isObject, type Problems } from "./json-schema.ts";
import type { MaskFacts } from "./openai.ts";

export function checkTrlLine(line: string, mask?: MaskFacts): Problems {
  const out: Problems = [];
  const row = JSON.parse(line) as unknown;
  if (!isObject(row)) return ["a line must be a JSON object"];
  if (hasEscape(row)) out.push("holds terminal escape bytes");
  const conversational = Array.isArray(row.prompt) && Array.isArray(row.completion);
  if (!conversational && !Array.isArray(row.messages)) return [...out, "needs messages, or prompt and completion (lists of messages)"];
  const decls = new Map<string, Record<string, unknown>>();
  if (!Array.isArray(row.tools)) out.push("the tools column must be a list");
  for (const [i, t] of (Array.isArray(row.tools) ? row.tools : []).entries()) {
    const fn = isObject(t) && isObject(t.function) ? t.function : t;
    const name = checkDeclaration(fn, `tools[${i}]`, out);
    if (name) decls.set(name, fn as Record<string, unknown>);
  }
  const prompt = (conversational ? row.prompt : []) as unknown[];
  const completion = (conversational ? row.completion : row.messages) as unknown[];
  const all = [...prompt, ...completion];
  const calls = new Map<string, string>();
  for (const [i, m] of all.entries()) {
    const at = i < prompt.length ? `prompt[${i}]` : `completion[${i - prompt.length}]`;
    if (!isObject(m) || !["system", "user", "assistant", "tool"].includes(m.role as string)) {
      out.push(`${at}: needs a role system/user/assistant/tool`);
      continue;
    }
    if (m.content !== undefined && typeof m.content !== "string") out.push(`${at}: content must be a string`);
    if (m.role === "tool") {
      if (typeof m.name !== "string") out.push(`${at}: a tool result names its function`);
      else if (typeof m.tool_call_id === "string" && calls.get(m.tool_call_id) !== m.name)
        out.push(`${at}: answers a call of another function`);
    }
    if (m.role === "assistant" && m.tool_calls !== undefined) {
      for (const [k, c] of (Array.isArray(m.tool_calls) ? m.tool_calls : []).entries()) {
        const w = `${at}.tool_calls[${k}]`;
        if (!isObject(c) || c.type !== "function" || !isObject(c.function) || typeof c.function.name !== "string") {
          out.push(`${w}: needs type "function" and function.name`);
          continue;
        }
        if (typeof c.function.arguments === "string") {
          out.push(`${w}: arguments must be an object, not a JSON string`);
          continue;
        }
        if (typeof c.id === "string") calls.set(c.id, c.function.name);
        checkArguments(c.function.arguments, decls.get(c.function.name), w, out);
      }
    }
  }
  const role = (m: unknown) => (isObject(m) ? m.role : undefined);
  if (role(completion.at(-1)) !== "assistant") out.push("the completion must end on an assistant message");
  if (conversational && role(completion[0]) !== "assistant") out.push("the completion must start with the assistant");
  const trained = completion.filter((m) => role(m) === "assistant").length;
  if (!trained) out.push("nothing to train: no assistant message in the completion");
  if (mask && trained > mask.recoveryAgentSteps)
    out.push(
      `${trained} assistant messages in the completion, but the recovery has ${mask.recoveryAgentSteps} agent steps: the failed context would be trained`,
    );
  return out;
}
