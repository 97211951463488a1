// Harbor output folders (Terminal-Bench 2.x): a job dir (`config.json`/`result.json` + one folder per trial) or a
// single trial dir (`result.json`, `agent/trajectory.json`, `agent/recording.cast`, `verifier/…`). Steps come from
// the ATIF trajectory (or, without one, from the recording); pass/fail, reward and failure mode from the trial's
// result.json (verifier/reward.txt when it has no reward). Multi-step trials (steps/<name>/agent/…) are read by
// harbor-steps.ts into one trajectory. The importer claims every trial folder, so the generic walker does not read
// trajectory.json or recording.cast a second time.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportRecord, Importer, ImportSource, ReadOptions } from "./types.ts";
import { castTrajectoryParts, parseAsciicast, type CastParse } from "./asciicast.ts";
import { readAtifFile, type AtifContext } from "./atif.ts";
import { fileSource } from "./source.ts";
import { hasStepAgentData, isMultiStepTrial, readStepsTrajectory } from "./harbor-steps.ts";
import { exists, isDir, listDir, outcomeFromReward, readJsonFile, readTextTail, taskIdFromPath, verifierReward } from "./trial-files.ts";
import { issue, issuesAsWarningsWhenImported, nonNegativeInt, normalized, schemaIssue, toIso } from "./util.ts";

type DirSource = Extract<ImportSource, { kind: "dir" }>;

const count = z.number().nullish();
const trialResultSchema = z.looseObject({
  id: z.string().nullish(),
  task_name: z.string().nullish(),
  trial_name: z.string().nullish(),
  source: z.string().nullish(),
  agent_info: z
    .looseObject({
      name: z.string().nullish(),
      version: z.string().nullish(),
      model_info: z.looseObject({ name: z.string().nullish(), provider: z.string().nullish() }).nullish(),
    })
    .nullish(),
  agent_result: z.looseObject({ n_input_tokens: count, n_cache_tokens: count, n_output_tokens: count, cost_usd: count }).nullish(),
  verifier_result: z.looseObject({ rewards: z.record(z.string(), z.number().nullable()).nullish() }).nullish(),
  exception_info: z.looseObject({ exception_type: z.string().nullish(), exception_message: z.string().nullish() }).nullish(),
  started_at: z.string().nullish(),
  finished_at: z.string().nullish(),
  // Multi-step tasks; each entry is validated on its own (harbor-steps.ts) so one bad entry does not lose the rest.
  step_results: z.array(z.unknown()).nullish(),
});
type TrialResult = z.infer<typeof trialResultSchema>;

const JOB_FILES = ["config.json", "result.json", "lock.json", "job.log"];
const MAX_EXCEPTION_MESSAGE = 2000;

/** Only the opening of result.json is read: enough to recognise Harbor's TrialResult keys cheaply. */
function looksLikeTrialResult(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return /"(?:trial_name|task_name|verifier_result|agent_info)"/.test(buf.subarray(0, n).toString("utf8"));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function isTrialDir(dir: string, entries: readonly string[] = listDir(dir)): boolean {
  if (
    entries.includes("agent") &&
    (exists(path.join(dir, "agent", "trajectory.json")) || exists(path.join(dir, "agent", "recording.cast")))
  )
    return true;
  if (hasStepAgentData(dir, entries)) return true;
  return entries.includes("result.json") && (entries.includes("verifier") || looksLikeTrialResult(path.join(dir, "result.json")));
}

function trialDirs(dir: string, entries: readonly string[]): string[] {
  return entries.map((e) => path.join(dir, e)).filter((p) => isDir(p) && isTrialDir(p));
}

function isJobDir(dir: string, entries: readonly string[]): boolean {
  return (entries.includes("config.json") || entries.includes("result.json")) && trialDirs(dir, entries).length > 0;
}

async function readTrialResult(dir: string, display: string): Promise<{ result?: TrialResult; record?: ImportRecord }> {
  const file = path.join(dir, "result.json");
  if (!exists(file)) return {};
  const json = await readJsonFile(file, `${display}/result.json`);
  if (!json.ok) return { record: json.record };
  const parsed = trialResultSchema.safeParse(json.value);
  return parsed.success ? { result: parsed.data } : { record: schemaIssue(parsed.error, `${display}/result.json`) };
}

/** What result.json and the verifier folder add to a trajectory of this trial. */
function trialOverlay(
  result: TrialResult | undefined,
  reward: number | undefined,
  verifierOutput: string | undefined,
): Partial<TrajectoryDraft> {
  const exception = result?.exception_info ?? undefined;
  const outcome = outcomeFromReward(reward);
  return {
    outcome: outcome === "unknown" && exception?.exception_type ? "failed" : outcome,
    reward: reward ?? null,
    failureMode: exception?.exception_type || undefined,
    verifierOutput,
    ...(toIso(result?.started_at) ? { startedAt: toIso(result?.started_at) } : {}),
    ...(toIso(result?.finished_at) ? { endedAt: toIso(result?.finished_at) } : {}),
  };
}

function trialMetadata(result: TrialResult | undefined, trialName: string, jobName: string): { harbor: Record<string, unknown> } {
  const message = result?.exception_info?.exception_message;
  return {
    harbor: {
      trialName,
      jobName,
      ...(result?.id ? { trialId: result.id } : {}),
      ...(result?.verifier_result?.rewards ? { rewards: result.verifier_result.rewards } : {}),
      ...(result?.agent_result?.cost_usd != null ? { costUsd: result.agent_result.cost_usd } : {}),
      ...(message ? { exceptionMessage: message.slice(0, MAX_EXCEPTION_MESSAGE) } : {}),
    },
  };
}

interface TrialTrajectory {
  draft: TrajectoryDraft;
  /** Sub-agents embedded in the trajectory file (ATIF v1.7). */
  embedded: TrajectoryDraft[];
  file: string;
  /** Folders whose agent/ may hold sub-agent files: the trial, or each step of a multi-step trial. */
  homes: { dir: string; display: string }[];
  /** Parent ids that stand for the trial's trajectory: the ids a multi-step trial's step files gave themselves. */
  stepIds: string[];
  /** What a multi-step trial's steps say when result.json and the trial's verifier/ do not. */
  fromSteps?: { reward?: number; verifierOutput?: string; failureMode?: string };
}

/** The trial's own trajectory: from ATIF, else steps derived from the recording, else its outcome alone. */
async function* trialTrajectory(
  dir: string,
  display: string,
  ctx: AtifContext & { runName: string },
  cast: CastParse | undefined,
  excused: boolean,
): AsyncGenerator<ImportRecord, TrialTrajectory> {
  const trajFile = path.join(dir, "agent", "trajectory.json");
  const embedded: TrajectoryDraft[] = [];
  let draft: TrajectoryDraft | undefined;
  if (exists(trajFile)) {
    const file = `${display}/agent/trajectory.json`;
    // The first trajectory read is the agent's own; embedded sub-agents follow it. Both get the trial's context.
    for await (const rec of readAtifFile(await fileSource(trajFile, file), ctx)) {
      if (!rec.ok) yield rec;
      else if (!draft) draft = rec.value.trajectory;
      else embedded.push(rec.value.trajectory);
    }
    if (draft) return { draft, embedded, file, homes: [{ dir, display }], stepIds: [] };
  }
  const base = { task: ctx.task, run: { name: ctx.runName } };
  if (cast?.recording) {
    const parts = castTrajectoryParts({ ...cast, recording: cast.recording });
    return {
      draft: {
        ...base,
        steps: parts.steps,
        startedAt: parts.startedAt,
        endedAt: parts.endedAt,
        metadata: { ...parts.metadata, ...ctx.extra },
      },
      embedded,
      file: display,
      homes: [{ dir, display }],
      stepIds: [],
    };
  }
  if (!exists(trajFile) && !excused)
    yield issue(display, "trial has no agent/trajectory.json or agent/recording.cast; imported its outcome without steps");
  return { draft: { ...base, steps: [], metadata: ctx.extra }, embedded, file: display, homes: [{ dir, display }], stepIds: [] };
}

async function* multiStepTrajectory(
  dir: string,
  display: string,
  ctx: AtifContext & { runName: string },
  stepResults: readonly unknown[],
  excused: boolean,
): AsyncGenerator<ImportRecord, TrialTrajectory> {
  const { draft, embedded, homes, stepIds, ...fromSteps } = yield* readStepsTrajectory(dir, display, ctx, stepResults, excused);
  return { draft, embedded, file: display, homes, stepIds, fromSteps };
}

async function* readTrial(dir: string, display: string, jobName: string, options: ReadOptions): AsyncGenerator<ImportRecord> {
  const { result, record: resultIssue } = await readTrialResult(dir, display);
  if (resultIssue) yield resultIssue;
  const { reward: stated, record: rewardIssue } = await verifierReward(dir, display, result?.verifier_result?.rewards);
  if (rewardIssue) yield rewardIssue;
  const trialOutput = await readTextTail(path.join(dir, "verifier", "test-stdout.txt"));

  const trialName = result?.trial_name || path.basename(dir);
  const taskName = result?.task_name || taskIdFromPath(dir);
  const ctx = {
    task: { benchmark: result?.source || "unknown", id: taskName, name: taskName },
    runName: options.runName ?? jobName,
    extra: trialMetadata(result, trialName, jobName),
  };
  // A trial that errored (e.g. the environment never started) is expected to have no steps.
  const excused = !!result?.exception_info?.exception_type;
  let cast: CastParse | undefined;
  let t: TrialTrajectory;
  if (isMultiStepTrial(dir, result?.step_results)) t = yield* multiStepTrajectory(dir, display, ctx, result?.step_results ?? [], excused);
  else {
    const castFile = path.join(dir, "agent", "recording.cast");
    cast = exists(castFile) ? await parseAsciicast(await fileSource(castFile, `${display}/agent/recording.cast`)) : undefined;
    for (const i of cast?.issues ?? []) yield { ok: false, issue: i };
    t = yield* trialTrajectory(dir, display, ctx, cast, excused);
  }
  const { draft, embedded, file } = t;
  // result.json's reward is the trial's (for multi-step tasks Harbor rolls the step rewards up into it).
  const reward = stated ?? t.fromSteps?.reward;
  const overlay = trialOverlay(result, reward, trialOutput ?? t.fromSteps?.verifierOutput);
  const id = draft.id ?? (result?.id ? `harbor:${result.id}` : `harbor:${jobName}/${trialName}`).slice(0, 200);
  const agent = result?.agent_info?.name || draft.run.agent;
  const model = result?.agent_info?.model_info?.name || draft.run.model;
  yield normalized(
    {
      ...draft,
      ...overlay,
      id,
      run: { ...draft.run, ...(agent ? { agent } : {}), ...(model ? { model } : {}) },
      failureMode: overlay.failureMode ?? t.fromSteps?.failureMode,
      inputTokens: draft.inputTokens ?? nonNegativeInt(result?.agent_result?.n_input_tokens),
      outputTokens: draft.outputTokens ?? nonNegativeInt(result?.agent_result?.n_output_tokens),
      recording: cast?.recording ?? draft.recording,
      ...(stated === undefined && reward !== undefined
        ? { metadata: { ...draft.metadata, harbor: { ...ctx.extra.harbor, rewardFrom: "mean of step rewards" } } }
        : {}),
    },
    "harbor",
    file,
  );
  // Sub-agents share the trial's task and run, but not its reward or exception: they are helpers, not rollouts.
  const identity = { harbor: { trialName, jobName, ...(result?.id ? { trialId: result.id } : {}) } };
  const replaced = new Set(t.stepIds);
  for (const sub of embedded)
    yield normalized(linkSubagent({ ...sub, metadata: { ...sub.metadata, ...identity } }, id, replaced), "harbor", file);
  for (const home of t.homes) yield* readSubagentFiles(home.dir, home.display, { ...ctx, extra: identity }, id, replaced);
}

/** A sub-agent whose parent could not be named from its own file (or is a step of this trial) is linked to the trial's. */
function linkSubagent(t: TrajectoryDraft, parentId: string, replaced: ReadonlySet<string>): TrajectoryDraft {
  const stated = t.metadata?.subagentOf;
  return typeof stated === "string" && stated && !replaced.has(stated) ? t : { ...t, metadata: { ...t.metadata, subagentOf: parentId } };
}

/** Terminus summarization sub-agents next to the trajectory: trajectories of their own, linked to the trial's. */
async function* readSubagentFiles(
  dir: string,
  display: string,
  ctx: AtifContext,
  parentId: string,
  replaced: ReadonlySet<string>,
): AsyncGenerator<ImportRecord> {
  const agentDir = path.join(dir, "agent");
  for (const name of listDir(agentDir).filter((n) => /^trajectory\.summarization-\d+-[\w-]+\.json$/.test(n))) {
    const file = `${display}/agent/${name}`;
    for await (const rec of readAtifFile(await fileSource(path.join(agentDir, name), file), ctx)) {
      yield rec.ok ? normalized(linkSubagent(rec.value.trajectory, parentId, replaced), "harbor", file) : rec;
    }
  }
}

export const harborImporter: Importer = {
  format: "harbor",
  label: "Harbor job or trial folder (Terminal-Bench 2)",
  detect(source) {
    if (source.kind !== "dir") return 0;
    if (isJobDir(source.path, source.entries)) return 0.95;
    return isTrialDir(source.path, source.entries) ? 0.9 : 0;
  },
  claims(source: DirSource) {
    if (isJobDir(source.path, source.entries))
      return [
        ...trialDirs(source.path, source.entries),
        ...JOB_FILES.filter((f) => source.entries.includes(f)).map((f) => path.join(source.path, f)),
      ];
    return isTrialDir(source.path, source.entries) ? source.entries.map((e) => path.join(source.path, e)) : [];
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "dir") return;
    if (!isJobDir(source.path, source.entries)) {
      if (isTrialDir(source.path, source.entries))
        yield* issuesAsWarningsWhenImported(
          readTrial(source.path, source.displayPath, path.basename(path.dirname(source.path)) || "harbor", options),
        );
      return;
    }
    for (const f of ["config.json", "result.json"].filter((f) => source.entries.includes(f))) {
      const json = await readJsonFile(path.join(source.path, f), `${source.displayPath}/${f}`);
      if (!json.ok) yield json.record;
    }
    const jobName = path.basename(source.path);
    for (const trial of trialDirs(source.path, source.entries))
      yield* issuesAsWarningsWhenImported(readTrial(trial, `${source.displayPath}/${path.basename(trial)}`, jobName, options));
  },
};
