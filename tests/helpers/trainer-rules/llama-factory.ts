// LLaMA-Factory `formatting: sharegpt`, from its data/README.md and dataset_info.json: `conversations` of {from,
// value}; human or observation at odd positions (1st, 3rd, …), gpt or function_call at even ones, so the list has an
// even length and ends on gpt/function_call; a function_call value is JSON `{"name", "arguments"}` (or a list of them
// for parallel calls), optionally preceded by the template's thought words (`<think>…</think>`); `system` a string;
// `tools` a JSON string of the function list. There is no per-turn mask: every gpt/function_call turn is trained.
import { checkArguments, checkDeclaration, hasEscape, isObject, type Problems } from "./json-schema.ts";
import type { MaskFacts } from "./openai.ts";

const THOUGHT = /^<think>[\s\S]*?<\/think>/;

export function checkShareGptLine(line: string, mask?: MaskFacts): Problems {
  const out: Problems = [];
  const row = JSON.parse(line) as unknown;
  if (!isObject(row)) return ["a line must be a JSON object"];
  if (hasEscape(row)) out.push("holds terminal escape bytes");
  if (row.system !== undefined && typeof row.system !== "string") out.push("system must be a string");
  const decls = new Map<string, Record<string, unknown>>();
  if (row.tools !== undefined) {
    if (typeof row.tools !== "string") out.push("tools must be a JSON string");
    else {
      let list: unknown;
      try {
        list = JSON.parse(row.tools);
      } catch {
        out.push("tools is not valid JSON");
      }
      if (list !== undefined && !Array.isArray(list)) out.push("tools must hold a list");
      for (const [i, t] of (Array.isArray(list) ? list : []).entries()) {
        const fn = isObject(t) && isObject(t.function) ? t.function : t;
        const name = checkDeclaration(fn, `tools[${i}]`, out);
        if (name) decls.set(name, fn as Record<string, unknown>);
      }
    }
  }
  const conv = row.conversations;
  if (!Array.isArray(conv) || !conv.length) return [...out, "conversations must be a non-empty list"];
  if (conv.length % 2 !== 0) out.push(`conversations has ${conv.length} messages: an even number is needed`);
  let trained = 0;
  for (const [i, m] of conv.entries()) {
    const at = `conversations[${i}]`;
    if (!isObject(m) || typeof m.from !== "string" || typeof m.value !== "string") {
      out.push(`${at}: needs string from and value`);
      continue;
    }
    const odd = i % 2 === 0; // 1st, 3rd, … position
    if (odd && m.from !== "human" && m.from !== "observation")
      out.push(`${at}: ${m.from} at an odd position (human or observation expected)`);
    if (!odd && m.from !== "gpt" && m.from !== "function_call")
      out.push(`${at}: ${m.from} at an even position (gpt or function_call expected)`);
    if (m.from === "gpt" || m.from === "function_call") trained++;
    if (m.from === "function_call") {
      let calls: unknown;
      try {
        calls = JSON.parse(m.value.replace(THOUGHT, ""));
      } catch {
        out.push(`${at}: function_call value is not JSON (after the thought)`);
        continue;
      }
      for (const [k, c] of (Array.isArray(calls) ? calls : [calls]).entries()) {
        if (!isObject(c) || typeof c.name !== "string") {
          out.push(`${at}[${k}]: a call needs a name`);
          continue;
        }
        checkArguments(c.arguments, decls.get(c.name), `${at}[${k}]`, out);
      }
    }
  }
  if (mask && trained > mask.recoveryAgentSteps)
    out.push(`${trained} trained turns, but the recovery has ${mask.recoveryAgentSteps} agent steps: the failed context is trained`);
  return out;
}

/** A `dataset_info.json` entry that loads the file as sharegpt with these columns. */
export function checkDatasetInfo(text: string, dataFile: string): Problems {
  const info = JSON.parse(text) as unknown;
  if (!isObject(info)) return ["dataset_info.json must be an object of datasets"];
  const entry = Object.values(info).find((e) => isObject(e) && e.file_name === dataFile);
  if (!isObject(entry)) return [`no dataset names ${dataFile}`];
  const out: Problems = [];
  if (entry.formatting !== "sharegpt") out.push("formatting must be sharegpt");
  const cols = isObject(entry.columns) ? entry.columns : {};
  if (cols.messages !== "conversations") out.push("columns.messages must be conversations");
  if (cols.tools !== "tools") out.push("columns.tools must be tools");
  return out;
}
