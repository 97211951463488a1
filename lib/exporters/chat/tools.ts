// The tools a row declares. Definitions come from the source where its format has them (kept by the importers in
// trajectory metadata `tools`: OpenAI chat `tools`, ShareGPT `tools`, ATIF `agent.tool_definitions`); a tool called
// but not defined there gets a schema inferred from its calls (name, argument names, JSON types); typed terminal
// commands are calls of our own `terminal` tool. Every name a row calls is declared, so a list is never empty beside
// tool calls. Pure and deterministic: source order first, then tools in order of first call.
export interface ToolDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
export type ToolOrigin = "source" | "inferred" | "builtin";

export const TERMINAL_TOOL = "terminal";
export const TERMINAL_TOOL_DEF: ToolDef = {
  name: TERMINAL_TOOL,
  description: "Send keystrokes (commands, one per line) to the terminal and read its output.",
  parameters: { type: "object", properties: { keystrokes: { type: "string" } }, required: ["keystrokes"] },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One source definition (OpenAI `{type, function: {…}}` or bare `{name, description, parameters}`), or null. */
function sourceDef(v: unknown): ToolDef | null {
  const f = isObject(v) && isObject(v.function) ? v.function : v;
  if (!isObject(f) || typeof f.name !== "string" || !f.name) return null;
  const parameters = isObject(f.parameters) ? f.parameters : isObject(f.input_schema) ? f.input_schema : { type: "object", properties: {} };
  return { name: f.name, description: typeof f.description === "string" ? f.description : "", parameters };
}

/** The definitions a trajectory's metadata keeps (a list, or a JSON string of one), by name, first wins. */
export function sourceTools(metadata: Record<string, unknown> | undefined): ToolDef[] {
  let raw = metadata?.tools;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(raw)) return [];
  const out: ToolDef[] = [];
  const seen = new Set<string>();
  for (const v of raw) {
    const d = sourceDef(v);
    if (d && !seen.has(d.name)) {
      seen.add(d.name);
      out.push(d);
    }
  }
  return out;
}

const jsonType = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number"
        ? Number.isInteger(v)
          ? "integer"
          : "number"
        : typeof v === "object"
          ? "object"
          : typeof v === "boolean"
            ? "boolean"
            : "string";

/** A schema inferred from the argument objects of every call of one tool: types seen per name; required = in all. */
export function inferTool(name: string, calls: readonly Record<string, unknown>[]): ToolDef {
  const types = new Map<string, Set<string>>();
  for (const args of calls) for (const [k, v] of Object.entries(args)) (types.get(k) ?? types.set(k, new Set()).get(k)!).add(jsonType(v));
  const properties: Record<string, unknown> = {};
  for (const [k, t] of types) {
    // An integer seen beside a fractional number is a number.
    const set = t.has("number") ? new Set([...t].filter((x) => x !== "integer")) : t;
    const list = [...set].sort();
    properties[k] = { type: list.length === 1 ? list[0] : list };
  }
  const required = [...types.keys()].filter((k) => calls.every((a) => k in a));
  return {
    name,
    description: `Inferred from the recorded calls of ${name}.`,
    parameters: { type: "object", properties, ...(required.length ? { required } : {}) },
  };
}

/** The tools a row declares and where each came from. */
export function rowTools(
  source: ToolDef[],
  calls: readonly { name: string; args: Record<string, unknown> }[],
): { tools: ToolDef[]; origins: Map<string, ToolOrigin> } {
  const origins = new Map<string, ToolOrigin>(source.map((d) => [d.name, "source"]));
  const tools = [...source];
  const byName = new Map<string, Record<string, unknown>[]>();
  for (const c of calls) if (!origins.has(c.name)) (byName.get(c.name) ?? byName.set(c.name, []).get(c.name)!).push(c.args);
  for (const [name, args] of byName) {
    const builtin = name === TERMINAL_TOOL;
    tools.push(builtin ? TERMINAL_TOOL_DEF : inferTool(name, args));
    origins.set(name, builtin ? "builtin" : "inferred");
  }
  return { tools, origins };
}
