// Shared by the agent-log and SFT importers: chat turns (system/user/assistant/tool) → normalized steps, readable
// renderings of tool calls, timestamp normalisation, and reading "JSON array or JSONL" files record by record.
import type { StepInput, ToolCall } from "../domain/trajectory.ts";
import type { ImportRecord, ImportSource, ReadOptions } from "./types.ts";
import { MAX_LINE_BYTES, isRecord, issue, jsonSyntaxIssue, readJson, readLines, readText } from "./util.ts";

export interface ChatTurn {
  role: "system" | "user" | "assistant" | "tool";
  /** Message text; for tool turns the tool output. */
  text?: string;
  reasoning?: string;
  /** What was typed, when the format states it (else rendered from toolCalls). */
  action?: string;
  toolCalls?: ToolCall[];
  /** Tool turns: the call they answer. */
  toolCallId?: string;
  exitCode?: number;
  timestamp?: string;
  promptTokens?: number;
  completionTokens?: number;
}

export interface ChatStepsOptions {
  /**
   * Text-mode agents (SWE-agent, mini-swe-agent, Terminus) get their command output back as the next user turn:
   * a user turn right after an agent step without observation becomes that step's observation.
   */
  userTurnIsObservation?: boolean;
  /** Split a raw observation into output and exit code (e.g. mini-swe-agent's <returncode> wrapper). */
  parseObservation?: (text: string) => { observation: string; exitCode?: number };
}

// Tools that run a shell or interpreter: their command argument is what was typed. Editors also take a
// `command` argument ("create", "view"), which is not a command line, hence the name check.
const SHELL_TOOL = /bash|shell|terminal|exec|run|command|cmd|python|ipython/i;
const COMMAND_KEYS = ["command", "cmd", "keystrokes", "code", "script"] as const;

/** One readable line (or block) for a tool call: the command for shell tools, else `name {json args}`. */
export function renderToolCall(call: ToolCall): string {
  const args = call.arguments;
  if (isRecord(args) && SHELL_TOOL.test(call.name)) {
    for (const key of COMMAND_KEYS) {
      const v = args[key];
      if (typeof v === "string" && v.trim()) return v.replace(/\r?\n$/, "");
    }
  }
  if (args === undefined || args === null || (isRecord(args) && Object.keys(args).length === 0)) return call.name;
  return `${call.name} ${typeof args === "string" ? args : JSON.stringify(args)}`;
}

export function renderAction(calls: readonly ToolCall[] | undefined): string | undefined {
  if (!calls?.length) return undefined;
  return calls.map(renderToolCall).join("\n");
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== "" ? text : undefined;
}

function addObservation(step: StepInput, observation: string, exitCode: number | undefined): void {
  step.observation = step.observation === undefined ? observation : `${step.observation}\n${observation}`;
  // When several calls answer into one step, a failing one decides the step's exit code.
  if (exitCode !== undefined && (step.exitCode === undefined || step.exitCode === 0)) step.exitCode = exitCode;
}

function agentStep(turn: ChatTurn): StepInput {
  const toolCalls = turn.toolCalls?.length ? turn.toolCalls : undefined;
  return {
    source: "agent",
    timestamp: turn.timestamp,
    message: nonEmpty(turn.text),
    reasoning: nonEmpty(turn.reasoning),
    action: nonEmpty(turn.action) ?? renderAction(toolCalls),
    toolCalls,
    promptTokens: turn.promptTokens,
    completionTokens: turn.completionTokens,
  };
}

/** Map chat turns to steps: assistant turns are agent steps; tool results land on the step whose call they answer. */
export function chatToSteps(turns: readonly ChatTurn[], options: ChatStepsOptions = {}): StepInput[] {
  const steps: StepInput[] = [];
  const parse = options.parseObservation ?? ((text: string): { observation: string; exitCode?: number } => ({ observation: text }));
  const lastAgent = (): StepInput | undefined => steps.findLast((s) => s.source === "agent");

  for (const turn of turns) {
    const prev = steps.at(-1);
    if (turn.role === "assistant") {
      steps.push(agentStep(turn));
    } else if (turn.role === "tool") {
      const target =
        (turn.toolCallId ? steps.findLast((s) => s.toolCalls?.some((c) => c.id === turn.toolCallId)) : undefined) ?? lastAgent();
      const { observation, exitCode } = parse(turn.text ?? "");
      if (target) addObservation(target, observation, turn.exitCode ?? exitCode);
      else steps.push({ source: "tool", timestamp: turn.timestamp, observation, exitCode: turn.exitCode ?? exitCode });
    } else if (turn.role === "user" && options.userTurnIsObservation && prev?.source === "agent" && prev.observation === undefined) {
      if (turn.text === undefined || turn.text === "") continue;
      const { observation, exitCode } = parse(turn.text);
      addObservation(prev, observation, turn.exitCode ?? exitCode);
    } else {
      steps.push({ source: turn.role, timestamp: turn.timestamp, message: turn.text ?? "" });
    }
  }
  return steps;
}

/** Fill offsetMs from step timestamps, relative to `start` (default: the first timestamp). */
export function withOffsets(steps: StepInput[], start?: string): StepInput[] {
  const base = Date.parse(start ?? steps.find((s) => s.timestamp)?.timestamp ?? "");
  if (Number.isNaN(base)) return steps;
  for (const s of steps) {
    if (s.timestamp) s.offsetMs = Math.max(0, Math.round(Date.parse(s.timestamp) - base));
  }
  return steps;
}

export function tokenTotals(steps: readonly StepInput[]): { inputTokens?: number; outputTokens?: number } {
  const has = steps.some((s) => s.promptTokens !== undefined || s.completionTokens !== undefined);
  if (!has) return {};
  return {
    inputTokens: steps.reduce((n, s) => n + (s.promptTokens ?? 0), 0),
    outputTokens: steps.reduce((n, s) => n + (s.completionTokens ?? 0), 0),
  };
}

/** "invalid JSON: <reason> at position N" for a JSON string found inside a record (e.g. tool-call arguments). */
export function invalidJson(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return `invalid JSON: ${message.replace(/ in JSON at position (\d+).*$/, " at position $1")}`;
}

/** File name without directory and without any of the given (lower-case) suffixes: the task id of last resort. */
export function fileStem(displayPath: string, suffixes: readonly string[]): string {
  const name = displayPath.split("/").pop()?.replace(/\.gz$/i, "") ?? displayPath;
  const suffix = suffixes.find((s) => name.toLowerCase().endsWith(s));
  return (suffix ? name.slice(0, -suffix.length) : name) || name;
}

export function runNameFor(options: ReadOptions, agent: string, model: string | undefined): string {
  return options.runName ?? (model ? `${agent}/${model}` : agent);
}

/** Bare NaN / Infinity / -Infinity tokens (outside strings) → null: what Python's json.dump writes by default. */
export function nullNonFinite(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") {
        out += c + (text[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') inString = false;
      out += c;
      continue;
    }
    if (c === '"') inString = true;
    const token = /^-?(?:NaN|Infinity)/.exec(text.slice(i, i + 9))?.[0];
    if (token) {
      out += "null";
      i += token.length - 1;
    } else out += c;
  }
  return out;
}

/**
 * readJson for files written by Python tools (Inspect, SWE-agent, OpenHands): when strict JSON fails on a bare
 * NaN or Infinity, read again with those values as null.
 */
export async function readPythonJson(source: Extract<ImportSource, { kind: "file" }>): ReturnType<typeof readJson> {
  const doc = await readJson(source);
  if (doc.ok || doc.record.ok || !doc.record.issue.message.startsWith("invalid JSON")) return doc;
  const text = await readText(source);
  if (!/NaN|Infinity/.test(text)) return doc;
  try {
    return { ok: true, value: JSON.parse(nullNonFinite(text)), text };
  } catch {
    return doc;
  }
}

/** A raw record of a "JSON array or JSONL" file: where it is, and its text for content-derived ids. */
export interface RawRecord {
  value: unknown;
  line?: number;
  /** "[12]" for array items, "" for JSONL lines. */
  path: string;
  raw: string;
}

const MAX_BAD_LINES_BEFORE_GIVING_UP = 50;

function looksBinary(text: string): boolean {
  return text.includes("\u0000") || (text.match(/\uFFFD/g)?.length ?? 0) > 8;
}

/**
 * JSONL unless the file is a JSON array or a pretty-printed document (a complete first line that is not JSON).
 * A first line longer than the head is read line by line: that works for JSONL and for minified documents alike.
 */
function isJsonLines(source: Extract<ImportSource, { kind: "file" }>): boolean {
  if (/\.jsonl$/i.test(source.path.replace(/\.gz$/i, ""))) return true;
  const head = source.head.replace(/^\uFEFF/, "").trimStart();
  if (head.startsWith("[")) return false;
  const end = head.indexOf("\n");
  if (end === -1) return true;
  try {
    JSON.parse(head.slice(0, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * Records of a file that is a JSON array, one JSON document, or JSONL (streamed line by line, bounded memory).
 * Unreadable lines become issues with their line number; binary content or a long run of bad lines stops early.
 */
export async function* readRecords(source: Extract<ImportSource, { kind: "file" }>): AsyncGenerator<RawRecord | ImportRecord> {
  const file = source.displayPath;
  if (!isJsonLines(source)) {
    const doc = await readJson(source);
    if (!doc.ok) return yield doc.record;
    if (!Array.isArray(doc.value)) return yield { value: doc.value, path: "", raw: doc.text };
    if (doc.value.length === 0) return yield issue(file, "the JSON array is empty");
    for (const [i, value] of doc.value.entries()) yield { value, path: `[${i}]`, raw: JSON.stringify(value) };
    return;
  }
  let good = 0;
  let badRun = 0;
  let seen = 0;
  for await (const { text: rawLine, lineNo, tooLong } of readLines(source)) {
    // readLines skips the content of over-long lines to bound memory; the record is lost, the rest continues.
    if (tooLong) {
      seen++;
      yield issue(file, `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB and was not read`, lineNo);
      continue;
    }
    const text = lineNo === 1 ? rawLine.replace(/^\uFEFF/, "") : rawLine;
    if (!text.trim()) continue;
    seen++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      if (looksBinary(text)) {
        yield issue(file, "binary content, not JSON text", lineNo);
        if (good === 0) return;
        continue;
      }
      // A JSONL record is one line, so the line is known even when V8 gives no position.
      const bad = jsonSyntaxIssue(file, text, e as Error);
      yield bad.ok ? bad : { ok: false, issue: { ...bad.issue, line: lineNo } };
      if (++badRun >= MAX_BAD_LINES_BEFORE_GIVING_UP && good === 0) {
        return yield issue(file, `stopped after ${badRun} unreadable lines: this does not look like JSONL`);
      }
      continue;
    }
    good++;
    badRun = 0;
    yield { value, line: lineNo, path: "", raw: text };
  }
  if (seen === 0) yield issue(file, "file is empty");
}

export function isRawRecord(r: RawRecord | ImportRecord): r is RawRecord {
  return "raw" in r;
}
