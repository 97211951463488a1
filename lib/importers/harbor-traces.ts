// Harbor "traces export" rows (formats.md §11): a JSON array (or JSONL) of rows {conversations: [{role, content}],
// agent, model, task, episode, run_id, trial_name, result, trace_source?, …}. Harbor writes one row per episode,
// each the conversation up to that agent turn, so a trial appears many times with ever longer prefixes.
// We import ONE trajectory per trial_name: the longest conversation of the main trace (rows whose trace_source is
// absent or "main"); sub-agent traces (e.g. "summarization-1-summary") are only listed in the metadata.
import { z } from "zod";
import type { Outcome, StepInput, ToolCall, TrajectoryDraft } from "../domain/trajectory.ts";
import { chatToSteps, isRawRecord, readRecords, type ChatTurn } from "./chat-steps.ts";
import type { Importer, ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { contentText, isRecord, normalized, schemaIssue, toIso } from "./util.ts";

const FORMAT = "harbor-traces";

const rowSchema = z.object({
  conversations: z.array(z.object({ role: z.string(), content: z.unknown().optional() })).min(1),
  agent: z.string().nullish(),
  model: z.string().nullish(),
  model_provider: z.string().nullish(),
  date: z.string().nullish(),
  task: z.string().nullish(),
  episode: z.string().nullish(),
  run_id: z.string().nullish(),
  trial_name: z.string().nullish(),
  result: z.union([z.string(), z.number(), z.null()]).optional(),
  trace_source: z.string().nullish(),
  tool_definitions: z.array(z.unknown()).nullish(),
  instruction: z.string().nullish(),
  verifier_output: z.string().nullish(),
});
type Row = z.infer<typeof rowSchema>;

const terminusReplySchema = z.object({
  analysis: z.string().optional(),
  plan: z.string().optional(),
  commands: z.array(z.object({ keystrokes: z.string(), duration: z.number().optional() })),
  task_complete: z.boolean().optional(),
});

/**
 * An assistant turn: `<think>` reasoning, then either Hermes-style `<tool_call>{json}</tool_call>` blocks (OpenHands
 * traces) or a Terminus JSON reply. A reply the harness could not parse (text around the JSON) stays a plain
 * message, as in the trajectory: its keystrokes were never sent.
 */
export function parseAssistant(content: string): Pick<ChatTurn, "reasoning" | "toolCalls"> {
  const think = /^\s*<think>([\s\S]*?)<\/think>\s*/.exec(content);
  const reasoning = think?.[1]?.trim() || undefined;
  const rest = think ? content.slice(think[0].length) : content;
  const hermes = [...rest.matchAll(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g)].flatMap((m): ToolCall[] => {
    try {
      const v: unknown = JSON.parse(m[1] ?? "");
      return isRecord(v) && typeof v.name === "string" ? [{ name: v.name, arguments: v.arguments }] : [];
    } catch {
      return [];
    }
  });
  if (hermes.length) return { reasoning, toolCalls: hermes };
  let reply: z.infer<typeof terminusReplySchema> | undefined;
  try {
    const p = terminusReplySchema.safeParse(JSON.parse(rest.trim()));
    reply = p.success ? p.data : undefined;
  } catch {
    reply = undefined;
  }
  if (!reply) return { reasoning };
  // The same tool calls Harbor writes into ATIF for Terminus: one bash_command per batch entry.
  const toolCalls: ToolCall[] = reply.commands.map((c) => ({
    name: "bash_command",
    arguments: { keystrokes: c.keystrokes, duration: c.duration },
  }));
  if (reply.task_complete) toolCalls.push({ name: "mark_task_complete", arguments: {} });
  return { reasoning, toolCalls: toolCalls.length ? toolCalls : undefined };
}

function stepsOf(row: Row): StepInput[] {
  const turns = row.conversations.map((m): ChatTurn => {
    const text = contentText(m.content) ?? "";
    if (m.role === "assistant") return { role: "assistant", text, ...parseAssistant(text) };
    if (m.role === "tool") return { role: "tool", text };
    return { role: m.role === "system" ? "system" : "user", text };
  });
  // Terminus feeds the terminal (or a parse error) back as the next user turn.
  return chatToSteps(turns, { userTurnIsObservation: true });
}

/** "1.0" → passed, "0.0" → failed, other numbers → reward only, anything else is an exception name → failed. */
export function resultOutcome(result: Row["result"]): { outcome: Outcome; reward?: number; failureMode?: string } {
  if (result === null || result === undefined) return { outcome: "unknown" };
  const text = String(result).trim();
  if (text === "" || /^(?:none|null|nan)$/i.test(text)) return { outcome: "unknown" };
  const n = Number(text);
  if (Number.isFinite(n))
    return n === 1 ? { outcome: "passed", reward: 1 } : n === 0 ? { outcome: "failed", reward: 0 } : { outcome: "unknown", reward: n };
  return { outcome: "failed", failureMode: text };
}

const isMain = (row: Row) => !row.trace_source || row.trace_source === "main";

interface Trial {
  best: Row;
  line?: number;
  path: string;
  rows: number;
  subagentTraces: Set<string>;
}

function better(candidate: Row, best: Row): boolean {
  if (isMain(candidate) !== isMain(best)) return isMain(candidate);
  // Ties go to the later row: a later episode of the same length is the more complete one.
  return candidate.conversations.length >= best.conversations.length;
}

function taskRef(row: Row): { benchmark: string; id: string } {
  const task = row.task?.trim() || "unknown-task";
  const cut = task.lastIndexOf("/");
  return cut > 0 ? { benchmark: task.slice(0, cut), id: task.slice(cut + 1) } : { benchmark: "unknown", id: task };
}

function toDraft(trial: Trial, options: ReadOptions): TrajectoryDraft {
  const row = trial.best;
  const model = row.model ?? undefined;
  const agent = row.agent ?? undefined;
  const { outcome, reward, failureMode } = resultOutcome(row.result);
  const runName = [row.run_id, agent, model].filter(Boolean).join("/") || "harbor-traces";
  return {
    task: { ...taskRef(row), instruction: row.instruction ?? undefined },
    run: { name: options.runName ?? runName, model, agent, source: "harbor" },
    outcome,
    reward,
    failureMode,
    verifierOutput: row.verifier_output ?? undefined,
    startedAt: toIso(row.date),
    steps: stepsOf(row),
    metadata: {
      trialName: row.trial_name ?? undefined,
      runId: row.run_id ?? undefined,
      episode: row.episode ?? undefined,
      rowsForTrial: trial.rows,
      traceSource: row.trace_source ?? undefined,
      subagentTraces: trial.subagentTraces.size ? [...trial.subagentTraces].sort() : undefined,
      modelProvider: row.model_provider ?? undefined,
      toolDefinitions: row.tool_definitions ?? undefined,
    },
  };
}

export const harborTracesImporter: Importer = {
  format: FORMAT,
  label: "Harbor traces export",
  detect(source) {
    if (source.kind !== "file") return 0;
    const head = source.head.trimStart();
    if (!/^[[{]/.test(head) || !/"conversations"\s*:\s*\[/.test(head)) return 0;
    if (/"trial_name"\s*:/.test(head)) return 0.95;
    if (/"episode"\s*:\s*"episode-/.test(head) && /"run_id"\s*:/.test(head)) return 0.8;
    // A first conversation longer than the head hides the row's other columns: role/content turns still tell.
    return /"conversations"\s*:\s*\[\s*\{\s*"(?:role|content)"\s*:/.test(head) ? 0.6 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    const file = source.displayPath;
    // Only the best row per trial is kept while reading: memory grows with trials, not with rows.
    const trials = new Map<string, Trial>();
    let index = 0;
    for await (const rec of readRecords(source)) {
      if (!isRawRecord(rec)) {
        yield rec;
        continue;
      }
      const parsed = rowSchema.safeParse(rec.value);
      if (!parsed.success) {
        yield schemaIssue(parsed.error, file, rec.line, rec.path);
        continue;
      }
      const row = parsed.data;
      const key = row.trial_name ?? (row.run_id && row.task ? `${row.run_id}/${row.task}` : `#${index}`);
      index++;
      const trial = trials.get(key);
      if (!trial) {
        trials.set(key, {
          best: row,
          line: rec.line,
          path: rec.path,
          rows: 1,
          subagentTraces: new Set(isMain(row) ? [] : [row.trace_source ?? ""]),
        });
        continue;
      }
      trial.rows++;
      if (!isMain(row) && row.trace_source) trial.subagentTraces.add(row.trace_source);
      if (better(row, trial.best)) Object.assign(trial, { best: row, line: rec.line, path: rec.path });
    }
    for (const trial of trials.values())
      yield normalized(toDraft(trial, options), FORMAT, trial.path ? `${file}${trial.path}` : file, trial.line);
  },
};
