// Terminal-Bench 1 run folders (`tb run` output): run-level results.json + run_metadata.json and one
// `<task-id>/<trial-name>/` folder per trial (results.json, commands.txt, sessions/agent.cast, panes/…). A single
// trial folder can be imported on its own too. Steps come from sessions/agent.cast when present (derived as for any
// cast), else one per commands.txt line (observation unknown). Pass/fail from `is_resolved`.
import path from "node:path";
import { z } from "zod";
import { stripAnsi } from "../domain/ansi.ts";
import type { StepInput, TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportRecord, Importer, ImportSource, ReadOptions } from "./types.ts";
import { castTrajectoryParts, parseAsciicast } from "./asciicast.ts";
import { runName } from "./atif-steps.ts";
import { fileSource } from "./source.ts";
import { exists, isDir, listDir, readJsonFile, readTextTail } from "./trial-files.ts";
import { MAX_LINE_BYTES, issue, issuesAsWarningsWhenImported, nonNegativeInt, normalized, readLines, schemaIssue, toIso } from "./util.ts";

type DirSource = Extract<ImportSource, { kind: "dir" }>;

const str = z.string().nullish();
const trialResultsSchema = z.looseObject({
  id: str,
  trial_name: str,
  task_id: str,
  instruction: str,
  is_resolved: z.boolean().nullish(),
  failure_mode: str,
  parser_results: z.record(z.string(), z.string()).nullish(),
  recording_path: str,
  total_input_tokens: z.number().nullish(),
  total_output_tokens: z.number().nullish(),
  trial_started_at: str,
  trial_ended_at: str,
});
type TrialResults = z.infer<typeof trialResultsSchema>;

const runMetadataSchema = z.looseObject({ run_id: str, dataset_name: str, agent_name: str, model_name: str, model: str });
type RunMetadata = z.infer<typeof runMetadataSchema>;

const PANE_BYTES = 8 * 1024;
// tmux key names the harness sends as separate items (send-keys arguments), as opposed to literal text.
const TMUX_KEY = /^(?:[CMS]-\S+|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|Home|End|PPage|NPage|PageUp|PageDown|IC|DC|F\d{1,2})$/;

export function isTb1TrialDir(dir: string, entries: readonly string[] = listDir(dir)): boolean {
  return (
    entries.includes("results.json") && (entries.includes("commands.txt") || entries.includes("sessions") || entries.includes("panes"))
  );
}

function isRunDir(entries: readonly string[]): boolean {
  return entries.includes("run_metadata.json") || (entries.includes("results.json") && entries.includes("tb.lock"));
}

function trialDirsOfRun(runDir: string, entries: readonly string[]): string[] {
  return entries
    .map((e) => path.join(runDir, e))
    .filter(isDir)
    .flatMap((taskDir) => listDir(taskDir).map((t) => path.join(taskDir, t)))
    .filter((p) => isDir(p) && isTb1TrialDir(p));
}

/** Decode one Python string literal starting at `i` (as written by repr()); null when malformed. */
function pyString(s: string, i: number): { value: string; end: number } | null {
  const quote = s[i];
  if (quote !== "'" && quote !== '"') return null;
  const simple: Record<string, string> = {
    n: "\n",
    r: "\r",
    t: "\t",
    "\\": "\\",
    "'": "'",
    '"': '"',
    a: "\u0007",
    b: "\b",
    f: "\f",
    v: "\v",
    "0": "\0",
  };
  let out = "";
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (c === quote) return { value: out, end: j + 1 };
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = s[++j];
    if (e === undefined) return null;
    const hexLen = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (hexLen) {
      const hex = s.slice(j + 1, j + 1 + hexLen);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== hexLen) return null;
      out += String.fromCodePoint(parseInt(hex, 16));
      j += hexLen;
    } else out += simple[e] ?? `\\${e}`;
  }
  return null;
}

/** `['ls -la', 'Enter']` → the items; null when the line is not a Python list of strings. */
export function parseKeysLine(line: string): string[] | null {
  const s = line.trim();
  if (!s.startsWith("[") || !s.endsWith("]")) return null;
  const items: string[] = [];
  let i = 1;
  for (;;) {
    while (s[i] === " ") i++;
    if (s[i] === "]" && i === s.length - 1) return items;
    const str = pyString(s, i);
    if (!str) return null;
    items.push(str.value);
    i = str.end;
    while (s[i] === " ") i++;
    if (s[i] === ",") i++;
    else if (!(s[i] === "]" && i === s.length - 1)) return null;
  }
}

/** Keys as a readable command: Enter ends a line, other tmux keys are named, text is kept as typed. */
export function renderKeys(keys: readonly string[]): string {
  let out = "";
  for (const k of keys) {
    if (k === "Enter" || k === "C-m" || k === "KPEnter") out += "\n";
    else if (TMUX_KEY.test(k)) out += out && !out.endsWith("\n") ? ` ${k} ` : `${k} `;
    else out += k;
  }
  return out
    .split("\n")
    .map((l) => l.replace(/ +$/, ""))
    .join("\n")
    .replace(/\n+$/, "");
}

/** One agent step per commands.txt line; the harness's own `asciinema rec` line is not the agent's. */
async function stepsFromCommands(file: string, display: string): Promise<{ steps: StepInput[]; issues: ImportRecord[] }> {
  const steps: StepInput[] = [];
  const issues: ImportRecord[] = [];
  for await (const { text, lineNo, tooLong } of readLines(await fileSource(file, display))) {
    if (tooLong) {
      issues.push(issue(display, `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB; skipped`, lineNo));
      continue;
    }
    if (!text.trim()) continue;
    const keys = parseKeysLine(text);
    if (!keys) {
      issues.push(issue(display, "expected a Python list of strings, e.g. ['ls', 'Enter']", lineNo));
      continue;
    }
    const action = renderKeys(keys);
    if (action && !/^asciinema rec\b/.test(action)) steps.push({ source: "agent", action });
  }
  return { steps, issues };
}

function verifierText(results: TrialResults | undefined): string | undefined {
  const parsed = results?.parser_results;
  if (!parsed || !Object.keys(parsed).length) return undefined;
  return Object.entries(parsed)
    .map(([test, status]) => `${test}: ${status}`)
    .join("\n");
}

async function readJsonWith<T>(file: string, display: string, schema: z.ZodType<T>): Promise<{ value?: T; record?: ImportRecord }> {
  if (!exists(file)) return {};
  const json = await readJsonFile(file, display);
  if (!json.ok) return { record: json.record };
  const parsed = schema.safeParse(json.value);
  return parsed.success ? { value: parsed.data } : { record: schemaIssue(parsed.error, display) };
}

function outcomeOf(r: TrialResults | undefined): Pick<TrajectoryDraft, "outcome" | "reward" | "failureMode"> {
  const mode = r?.failure_mode && r.failure_mode !== "unset" ? r.failure_mode : undefined;
  if (r?.is_resolved === true) return { outcome: "passed", reward: 1, failureMode: mode };
  if (r?.is_resolved === false) return { outcome: "failed", reward: 0, failureMode: mode };
  return { outcome: mode ? "failed" : "unknown", reward: null, failureMode: mode };
}

type TrialSteps = Partial<TrajectoryDraft> & { steps: StepInput[] };

/** Steps from sessions/agent.cast (with the recording), else from commands.txt; issues are yielded on the way. */
async function* trialSteps(dir: string, display: string): AsyncGenerator<ImportRecord, TrialSteps> {
  const castFile = path.join(dir, "sessions", "agent.cast");
  if (exists(castFile)) {
    const cast = await parseAsciicast(await fileSource(castFile, `${display}/sessions/agent.cast`));
    for (const i of cast.issues) yield { ok: false, issue: i };
    if (cast.recording) return castTrajectoryParts({ ...cast, recording: cast.recording });
  }
  const commandsFile = path.join(dir, "commands.txt");
  if (!exists(commandsFile)) return { steps: [] };
  const fromCommands = await stepsFromCommands(commandsFile, `${display}/commands.txt`);
  yield* fromCommands.issues;
  return { steps: fromCommands.steps };
}

function runOf(meta: RunMetadata | undefined, runDir: string, options: ReadOptions): TrajectoryDraft["run"] {
  const model = meta?.model_name || meta?.model || undefined;
  return {
    name: options.runName ?? (meta?.agent_name ? runName(meta.agent_name, model) : path.basename(runDir) || "terminal-bench-1"),
    ...(meta?.agent_name ? { agent: meta.agent_name } : {}),
    ...(model ? { model } : {}),
  };
}

async function* readTrial(
  dir: string,
  display: string,
  runDir: string,
  meta: RunMetadata | undefined,
  options: ReadOptions,
): AsyncGenerator<ImportRecord> {
  const { value: results, record } = await readJsonWith(path.join(dir, "results.json"), `${display}/results.json`, trialResultsSchema);
  if (record) yield record;
  const trialName = results?.trial_name || path.basename(dir);
  const taskId = results?.task_id || path.basename(path.dirname(dir));
  const parts = yield* trialSteps(dir, display);
  if (!results && !parts.steps.length) yield issue(display, "trial has no results.json, sessions/agent.cast or commands.txt");

  const testsLog = verifierText(results) ? undefined : await readTextTail(path.join(dir, "sessions", "tests.log"));
  const pane = await readTextTail(path.join(dir, "panes", "post-agent.txt"), PANE_BYTES);
  const inputTokens = nonNegativeInt(results?.total_input_tokens);
  const outputTokens = nonNegativeInt(results?.total_output_tokens);
  // Installed agents report 0/0 tokens to the harness: that means "not measured", not "no tokens used".
  const measured = (inputTokens ?? 0) + (outputTokens ?? 0) > 0;
  const draft: TrajectoryDraft = {
    id: (results?.id ? `tb1:${results.id}` : `tb1:${meta?.run_id || path.basename(runDir)}/${trialName}`).slice(0, 200),
    task: {
      benchmark: meta?.dataset_name || "terminal-bench-1",
      id: taskId,
      name: taskId,
      ...(results?.instruction ? { instruction: results.instruction } : {}),
    },
    run: runOf(meta, runDir, options),
    ...outcomeOf(results),
    verifierOutput: verifierText(results) ?? (testsLog ? stripAnsi(testsLog) : undefined),
    steps: parts.steps,
    recording: parts.recording,
    startedAt: toIso(results?.trial_started_at) ?? parts.startedAt,
    endedAt: toIso(results?.trial_ended_at) ?? parts.endedAt,
    ...(measured ? { inputTokens, outputTokens } : {}),
    metadata: {
      ...parts.metadata,
      tb1: {
        trialName,
        ...(meta?.run_id ? { runId: meta.run_id } : {}),
        ...(results?.failure_mode ? { failureMode: results.failure_mode } : {}),
        ...(pane?.trim() ? { postAgentPane: pane } : {}),
      },
    },
  };
  yield normalized(draft, "terminal-bench-1", `${display}/results.json`);
}

export const terminalBench1Importer: Importer = {
  format: "terminal-bench-1",
  label: "Terminal-Bench 1 run or trial folder (tb run)",
  detect(source) {
    if (source.kind !== "dir") return 0;
    if (isRunDir(source.entries)) return 0.95;
    return isTb1TrialDir(source.path, source.entries) ? 0.9 : 0;
  },
  claims(source: DirSource) {
    return isRunDir(source.entries) || isTb1TrialDir(source.path, source.entries)
      ? source.entries.map((e) => path.join(source.path, e))
      : [];
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "dir") return;
    const runDir = isRunDir(source.entries) ? source.path : path.dirname(path.dirname(source.path));
    const metaDisplay = isRunDir(source.entries)
      ? `${source.displayPath}/run_metadata.json`
      : `${source.displayPath}/../../run_metadata.json`;
    const { value: meta, record } = await readJsonWith(path.join(runDir, "run_metadata.json"), metaDisplay, runMetadataSchema);
    if (record) yield record;
    if (!isRunDir(source.entries)) {
      if (isTb1TrialDir(source.path, source.entries))
        yield* issuesAsWarningsWhenImported(readTrial(source.path, source.displayPath, runDir, meta, options));
      return;
    }
    const runResults = path.join(source.path, "results.json");
    if (exists(runResults)) {
      const json = await readJsonFile(runResults, `${source.displayPath}/results.json`);
      if (!json.ok) yield json.record;
    }
    for (const trial of trialDirsOfRun(source.path, source.entries)) {
      yield* issuesAsWarningsWhenImported(
        readTrial(trial, `${source.displayPath}/${path.relative(source.path, trial)}`, source.path, meta, options),
      );
    }
  },
};
