// OpenAI fine-tuning chat format, from OpenAI's fine-tuning guide (chat format, function calling, weights): a line
// holds `messages` and optionally `tools` and `parallel_tool_calls`, nothing else; roles system/user/assistant/tool;
// assistant `tool_calls: [{id, type: "function", function: {name, arguments}}]` with `arguments` a JSON string; a
// tool message answers a call by `tool_call_id`; `weight` 0|1 on assistant messages; every function called is
// declared in `tools: [{type: "function", function: {name, description, parameters}}]`.
import { checkArguments, checkDeclaration, hasEscape, isObject, type Problems } from "./json-schema.ts";

export interface MaskFacts {
  contextAgentSteps: number;
  recoveryAgentSteps: number;
}

export function checkOpenAiLine(line: string, mask?: MaskFacts): Problems {
  const out: Problems = [];
  const row = JSON.parse(line) as unknown;
  if (hasEscape(row)) out.push("holds terminal escape bytes");
  if (!isObject(row)) return ["a line must be a JSON object"];
  for (const k of Object.keys(row))
    if (!["messages", "tools", "parallel_tool_calls"].includes(k)) out.push(`key ${k} is not part of the format`);
  if (row.parallel_tool_calls !== undefined && typeof row.parallel_tool_calls !== "boolean")
    out.push("parallel_tool_calls must be a boolean");
  const decls = new Map<string, Record<string, unknown>>();
  if (row.tools !== undefined) {
    if (!Array.isArray(row.tools) || !row.tools.length) out.push("tools, when present, must be a non-empty list");
    for (const [i, t] of (Array.isArray(row.tools) ? row.tools : []).entries()) {
      if (!isObject(t) || t.type !== "function") out.push(`tools[${i}]: type must be "function"`);
      const name = checkDeclaration(isObject(t) ? t.function : undefined, `tools[${i}].function`, out);
      if (name && isObject(t)) decls.set(name, t.function as Record<string, unknown>);
    }
  }
  const messages = row.messages;
  if (!Array.isArray(messages) || !messages.length) return [...out, "messages must be a non-empty list"];
  let open = new Set<string>();
  let trained = 0;
  let masked = 0;
  for (const [i, m] of messages.entries()) {
    const at = `messages[${i}]`;
    if (!isObject(m)) {
      out.push(`${at}: not an object`);
      continue;
    }
    if (m.role !== "tool" && open.size) out.push(`${at}: calls ${[...open].join(", ")} were not answered by tool messages`);
    if (m.role === "system" || m.role === "user") {
      if (typeof m.content !== "string") out.push(`${at}: content must be a string`);
    } else if (m.role === "assistant") {
      const calls = m.tool_calls;
      if (m.content === undefined ? calls === undefined : typeof m.content !== "string")
        out.push(`${at}: an assistant message needs content or tool_calls`);
      if (m.weight !== undefined && m.weight !== 0 && m.weight !== 1) out.push(`${at}: weight must be 0 or 1`);
      if (m.weight === 0) masked++;
      else trained++;
      open = new Set();
      if (calls !== undefined) {
        if (!Array.isArray(calls) || !calls.length) out.push(`${at}: tool_calls must be a non-empty list`);
        for (const [k, c] of (Array.isArray(calls) ? calls : []).entries()) {
          const w = `${at}.tool_calls[${k}]`;
          if (
            !isObject(c) ||
            typeof c.id !== "string" ||
            c.type !== "function" ||
            !isObject(c.function) ||
            typeof c.function.name !== "string"
          ) {
            out.push(`${w}: needs id, type "function" and function.name`);
            continue;
          }
          open.add(c.id);
          const fn = c.function;
          if (typeof fn.arguments !== "string") {
            out.push(`${w}: arguments must be a JSON string`);
            continue;
          }
          let args: unknown;
          try {
            args = JSON.parse(fn.arguments);
          } catch {
            out.push(`${w}: arguments is not valid JSON`);
            continue;
          }
          checkArguments(args, decls.get(fn.name as string), w, out);
        }
      }
    } else if (m.role === "tool") {
      if (typeof m.content !== "string") out.push(`${at}: content must be a string`);
      if (typeof m.tool_call_id !== "string" || !open.has(m.tool_call_id))
        out.push(`${at}: tool_call_id does not answer an open call of the previous assistant message`);
      else open.delete(m.tool_call_id);
    } else out.push(`${at}: role ${String(m.role)} is not system/user/assistant/tool`);
  }
  const last = messages.at(-1) as Record<string, unknown>;
  if (last?.role !== "assistant") out.push("the conversation must end on an assistant message");
  if (!trained) out.push("no assistant message is trained (weight 1)");
  if (mask && trained > mask.recoveryAgentSteps)
    out.push(
      `${trained} trained assistant messages, but the recovery has ${mask.recoveryAgentSteps} agent steps: the failed context is trained`,
    );
  if (mask && mask.contextAgentSteps > 0 && !masked) out.push("the failed context has no weight-0 assistant message");
  return out;
}
