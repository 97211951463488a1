// SWE-agent `.traj` files (formats.md §7): one JSON object per instance with `trajectory[]` (thought, action,
// observation, execution_time), the chat `history[]` and `info` (exit status, submission, model stats). Older
// demonstrations carry only `history[]`. Pass/fail is not in the file (it comes from a separate SWE-bench report).
import { z } from "zod";
import type { StepInput, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, fileStem, readPythonJson, runNameFor, type ChatTurn } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { baseName, contentText, isRecord, nonNegativeInt, normalized, schemaIssue } from "./util.ts";

const FORMAT = "swe-agent";

const trajectoryStepSchema = z.object({
  thought: z.string().nullish(),
  action: z.string().nullish(),
  observation: z.string().nullish(),
  response: z.string().nullish(),
  execution_time: z.union([z.number(), z.string()]).nullish(),
});

const historyMessageSchema = z.object({
  role: z.string(),
  content: z.unknown().optional(),
  thought: z.string().nullish(),
  action: z.string().nullish(),
  // A list in SWE-agent ≥ 1.0; a Python repr string in the demonstrations.
  tool_calls: z.unknown().optional(),
  tool_call_ids: z.unknown().optional(),
  message_type: z.string().nullish(),
  is_demo: z.boolean().nullish(),
});

const modelStatsSchema = z.object({
  instance_cost: z.number().nullish(),
  tokens_sent: z.number().nullish(),
  tokens_received: z.number().nullish(),
  api_calls: z.number().nullish(),
});

const sweAgentFileSchema = z
  .object({
    environment: z.string().nullish(),
    trajectory: z.array(trajectoryStepSchema).optional(),
    history: z.array(historyMessageSchema).optional(),
    info: z
      .object({
        exit_status: z.string().nullish(),
        // A patch string usually; a dict when a multi-agent/reviewer run submits structured output (sweagent/types.py AgentInfo).
        submission: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
        model_stats: z.union([modelStatsSchema, z.string()]).nullish(),
        swe_agent_version: z.string().nullish(),
      })
      .nullish(),
    replay_config: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  })
  .refine((d) => d.trajectory !== undefined || d.history !== undefined, {
    message: "expected a trajectory[] or history[] array",
    path: ["trajectory"],
  });
type SweAgentFile = z.infer<typeof sweAgentFileSchema>;
type HistoryMessage = z.infer<typeof historyMessageSchema>;

/** Parse a Python literal (dict/list/tuple/str/number/True/False/None): SWE-agent writes repr() into JSON strings. */
export function parsePythonLiteral(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] ?? "")) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`unexpected ${JSON.stringify(text[i] ?? "end")} at ${i}`);
  };
  const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"' };
  const str = (): string => {
    const q = text[i++];
    let out = "";
    while (i < text.length && text[i] !== q) {
      const c = text[i++] ?? "";
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = text[i++] ?? fail();
      if (e in ESCAPES) out += ESCAPES[e];
      else if (e === "x" || e === "u") {
        const n = e === "x" ? 2 : 4;
        out += String.fromCharCode(parseInt(text.slice(i, i + n), 16));
        i += n;
      } else out += `\\${e}`;
    }
    if (text[i++] !== q) fail();
    return out;
  };
  // Items up to `close`, each read by `item`; the opening bracket is already consumed.
  const items = (close: string, item: () => void) => {
    for (ws(); text[i] !== close; ws()) {
      if (i >= text.length) fail();
      item();
      ws();
      if (text[i] === ",") i++;
      else if (text[i] !== close) fail();
    }
    i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "'" || c === '"') return str();
    if (c === "[" || c === "(") {
      i++;
      const list: unknown[] = [];
      items(c === "[" ? "]" : ")", () => list.push(value()));
      return list;
    }
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      items("}", () => {
        const key = value();
        ws();
        if (text[i++] !== ":") fail();
        obj[String(key)] = value();
      });
      return obj;
    }
    const m = /^(?:True|False|None|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/.exec(text.slice(i, i + 40)) ?? fail();
    i += m[0].length;
    return m[0] === "True" ? true : m[0] === "False" ? false : m[0] === "None" ? null : Number(m[0]);
  };
  const result = value();
  ws();
  if (i < text.length) fail();
  return result;
}

/** A value that may be JSON text or a Python repr of it. */
function parseLoose(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    try {
      return parsePythonLiteral(v);
    } catch {
      return undefined;
    }
  }
}

const historyToolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({ name: z.string(), arguments: z.unknown().optional() }),
});

// Tool calls are secondary here (the rendered `action` is authoritative), so malformed ones are dropped quietly.
function historyToolCalls(m: HistoryMessage): ToolCall[] | undefined {
  const raw = parseLoose(m.tool_calls);
  if (!Array.isArray(raw)) return undefined;
  const calls = raw.flatMap((c) => {
    const p = historyToolCallSchema.safeParse(c);
    return p.success ? [{ id: p.data.id ?? undefined, name: p.data.function.name, arguments: parseLoose(p.data.function.arguments) }] : [];
  });
  return calls.length ? calls : undefined;
}

function historyTurns(history: readonly HistoryMessage[]): ChatTurn[] {
  return history
    .filter((m) => !m.is_demo && m.message_type !== "demonstration")
    .map((m): ChatTurn => {
      const text = contentText(m.content) ?? "";
      if (m.role === "assistant") {
        // In text mode the content is thought + command block; thought and action are kept separately instead.
        return {
          role: "assistant",
          text: m.thought ? undefined : text,
          reasoning: m.thought ?? undefined,
          action: m.action?.replace(/\r?\n$/, ""),
          toolCalls: historyToolCalls(m),
        };
      }
      if (m.role === "tool") {
        const ids = parseLoose(m.tool_call_ids);
        return { role: "tool", text, toolCallId: Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : undefined };
      }
      return { role: m.role === "system" ? "system" : "user", text };
    });
}

function stepsFromTrajectory(file: SweAgentFile, turns: ChatTurn[]): StepInput[] {
  const firstAgent = turns.findIndex((t) => t.role === "assistant");
  const prelude = chatToSteps(firstAgent === -1 ? turns : turns.slice(0, firstAgent));
  const assistantTurns = turns.filter((t) => t.role === "assistant");
  const items = file.trajectory ?? [];
  const times = items.map((s) => (s.execution_time === null || s.execution_time === undefined ? NaN : Number(s.execution_time)));
  const timed = times.every((t) => Number.isFinite(t) && t >= 0);
  let clock = 0;
  const agentSteps = items.map((s, i): StepInput => {
    clock += timed ? (times[i] ?? 0) * 1000 : 0;
    return {
      source: "agent",
      reasoning: s.thought || undefined,
      message: s.thought ? undefined : s.response || undefined,
      action: s.action?.replace(/\r?\n$/, "") || undefined,
      // The history's assistant turns are the same turns in the same order when nothing was dropped.
      toolCalls: assistantTurns.length === items.length ? assistantTurns[i]?.toolCalls : undefined,
      observation: s.observation ?? undefined,
      offsetMs: timed ? Math.round(clock) : undefined,
    };
  });
  return [...prelude, ...agentSteps];
}

function dig(obj: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), obj);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v : undefined;
}

// SWE-bench instance ids look like "owner__repo-1234".
const SWE_BENCH_ID = /^[\w.-]+__[\w.-]+-\d+$/;

function toDraft(file: SweAgentFile, displayPath: string, options: ReadOptions): TrajectoryDraft {
  const replay = parseLoose(file.replay_config);
  const turns = historyTurns(file.history ?? []);
  const steps = file.trajectory ? stepsFromTrajectory(file, turns) : chatToSteps(turns, { userTurnIsObservation: true });
  const instanceId =
    str(dig(replay, "problem_statement", "id")) ??
    str(dig(replay, "instance_id")) ??
    fileStem(displayPath, [".traj.json", ".traj", ".json"]);
  const image = str(dig(replay, "env", "deployment", "image")) ?? "";
  const model = str(dig(replay, "agent", "model", "name")) ?? str(dig(replay, "agent", "model", "model_name"));
  const stats = modelStatsSchema.safeParse(parseLoose(file.info?.model_stats));
  const sent = stats.success ? nonNegativeInt(stats.data.tokens_sent) : undefined;
  const received = stats.success ? nonNegativeInt(stats.data.tokens_received) : undefined;
  // Demonstrations record zero tokens: that means "not tracked", not "free".
  const tracked = (sent ?? 0) + (received ?? 0) > 0;
  const exitStatus = file.info?.exit_status ?? undefined;
  return {
    task: {
      benchmark: SWE_BENCH_ID.test(instanceId) || /sweb\.eval|swe-?bench/i.test(image) ? "swe-bench" : "unknown",
      id: instanceId,
      instruction: str(dig(replay, "problem_statement", "text")) ?? turns.find((t) => t.role === "user")?.text,
    },
    run: { name: runNameFor(options, "swe-agent", model), model, agent: "swe-agent", source: "swe-agent" },
    outcome: "unknown",
    failureMode: exitStatus && exitStatus !== "submitted" ? exitStatus : undefined,
    inputTokens: tracked ? sent : undefined,
    outputTokens: tracked ? received : undefined,
    steps,
    metadata: {
      exitStatus,
      submission: file.info?.submission ?? undefined,
      instanceCost: stats.success ? (stats.data.instance_cost ?? undefined) : undefined,
      apiCalls: stats.success ? (stats.data.api_calls ?? undefined) : undefined,
      environment: file.environment ?? undefined,
      sweAgentVersion: file.info?.swe_agent_version ?? undefined,
    },
  };
}

export const sweAgentImporter: Importer = {
  format: FORMAT,
  label: "SWE-agent .traj",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (!head.startsWith("{")) return 0;
    const name = baseName(source.path);
    const hasTrajectory = /"trajectory"\s*:\s*\[/.test(head) && /"(?:action|observation|thought)"\s*:/.test(head);
    const hasHistory = /"history"\s*:\s*\[/.test(head) && /"role"\s*:/.test(head);
    if (name.endsWith(".traj")) return hasTrajectory || hasHistory ? 0.95 : 0.6;
    if (/"trajectory_format"|"schema_version"|"sessionId"/.test(head)) return 0;
    return hasTrajectory ? 0.7 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const doc = await readPythonJson(source);
    if (!doc.ok) return yield doc.record;
    const parsed = sweAgentFileSchema.safeParse(doc.value);
    if (!parsed.success) return yield schemaIssue(parsed.error, source.displayPath);
    yield normalized(toDraft(parsed.data, source.displayPath, options), FORMAT, source.displayPath);
  },
};
