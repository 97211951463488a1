// Harbor multi-step trials (formats.md §2): the trial folder has `steps/<step-name>/{agent,verifier,artifacts}/`
// instead of its own agent/ and verifier/, and result.json has `step_results[]`. The agent works through the steps
// one after the other in one environment, so the trial is ONE trajectory: the step folders' ATIF trajectories (or
// recordings) concatenated, each task-step's span kept in `metadata.harborSteps` ({name, firstStep, stepCount,
// reward}; firstStep is the 0-based index of the step's first trajectory step). Step order: step_results order when
// result.json has it, else the folder names in natural order (step-2 before step-10).
import path from "node:path";
import { z } from "zod";
import type { RecordingEvent, RecordingInput, StepInput, TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportRecord } from "./types.ts";
import { castTrajectoryParts, parseAsciicast } from "./asciicast.ts";
import { readAtifFile, type AtifContext } from "./atif.ts";
import { fileSource } from "./source.ts";
import { exists, isDir, listDir, pickReward, readTextTail, SIDE_TEXT_BYTES, verifierReward } from "./trial-files.ts";
import { issue, schemaIssue } from "./util.ts";

// Harbor has changed this record between releases: every field is optional, unknown ones are kept.
const stepResultSchema = z.looseObject({
  step_name: z.string().nullish(),
  name: z.string().nullish(),
  step: z.union([z.string(), z.number()]).nullish(),
  reward: z.number().nullish(),
  verifier_result: z.looseObject({ rewards: z.record(z.string(), z.number().nullable()).nullish() }).nullish(),
  exception_info: z.looseObject({ exception_type: z.string().nullish() }).nullish(),
});
type StepResult = z.infer<typeof stepResultSchema>;

/** Harbor's rule for step names; anything else from result.json must not become a path. */
const STEP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Each step's test output gets an equal share of the usual verifier-output bound, but never less than this. */
const MIN_STEP_OUTPUT_BYTES = 4 * 1024;

export interface HarborStep {
  name: string;
  firstStep: number;
  stepCount: number;
  reward: number | null;
  failureMode?: string;
}

export interface StepsTrajectory {
  draft: TrajectoryDraft;
  /** Sub-agents embedded in the steps' trajectory files. */
  embedded: TrajectoryDraft[];
  /** Step folders that exist, for the sub-agent files next to their trajectories. */
  homes: { dir: string; display: string }[];
  /** Ids the step files gave their own trajectories: sub-agents linked to them belong to the trial's trajectory. */
  stepIds: string[];
  /** Harbor's default roll-up of the step rewards (their mean), for trials whose result.json states none. */
  reward?: number;
  verifierOutput?: string;
  failureMode?: string;
}

function stepFolders(dir: string): string[] {
  const steps = path.join(dir, "steps");
  return listDir(steps)
    .filter((n) => isDir(path.join(steps, n)))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** A trial whose agent data lives under steps/<name>/agent/ (what isTrialDir looks for). */
export function hasStepAgentData(dir: string, entries: readonly string[]): boolean {
  if (!entries.includes("steps")) return false;
  return stepFolders(dir).some((n) => ["trajectory.json", "recording.cast"].some((f) => exists(path.join(dir, "steps", n, "agent", f))));
}

/** Multi-step unless the trial has its own agent trajectory or recording: single-step trials read as before. */
export function isMultiStepTrial(dir: string, stepResults: readonly unknown[] | null | undefined): boolean {
  if (exists(path.join(dir, "agent", "trajectory.json")) || exists(path.join(dir, "agent", "recording.cast"))) return false;
  if (stepResults?.length) return true;
  return stepFolders(dir).some((n) => isDir(path.join(dir, "steps", n, "agent")) || isDir(path.join(dir, "steps", n, "verifier")));
}

/** Steps in order, each with its result when result.json has one; bad entries are reported and skipped. */
function* orderSteps(
  dir: string,
  display: string,
  raw: readonly unknown[],
): Generator<ImportRecord, { name: string; result?: StepResult }[]> {
  const folders = stepFolders(dir);
  const out: { name: string; result?: StepResult }[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of raw.entries()) {
    const parsed = stepResultSchema.safeParse(entry);
    if (!parsed.success) {
      yield schemaIssue(parsed.error, `${display}/result.json`, undefined, `step_results[${i}]`);
      continue;
    }
    const r = parsed.data;
    // Releases that number their steps instead of naming them are matched to the folders by position.
    const name = r.step_name ?? r.name ?? (typeof r.step === "string" ? r.step : undefined) ?? folders[i];
    if (!name) continue;
    if (!STEP_NAME.test(name)) {
      yield issue(
        `${display}/result.json`,
        `step name ${JSON.stringify(name.slice(0, 60))} is not a step folder name; ignored`,
        undefined,
        `step_results[${i}]`,
      );
      continue;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ name, result: r });
  }
  for (const f of folders) if (!seen.has(f)) out.push({ name: f });
  return out;
}

/** The step's reward as result.json states it: its verifier's `reward` (or only reward), else a plain `reward`. */
function statedReward(r: StepResult | undefined): number | undefined {
  return (r?.verifier_result?.rewards ? pickReward(r.verifier_result.rewards) : undefined) ?? r?.reward ?? undefined;
}

interface StepPart {
  name: string;
  steps: StepInput[];
  startedAt?: string;
  endedAt?: string;
  agent?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  recording?: RecordingInput;
  reward?: number;
  failureMode?: string;
  verifierText?: string;
}

async function* readStep(
  stepDir: string,
  stepDisplay: string,
  name: string,
  result: StepResult | undefined,
  ctx: AtifContext,
  excused: boolean,
  outputBytes: number,
  into: Pick<StepsTrajectory, "embedded" | "homes" | "stepIds">,
): AsyncGenerator<ImportRecord, StepPart> {
  const failureMode = result?.exception_info?.exception_type || undefined;
  if (!isDir(stepDir)) {
    // After an exception (or a step below its min_reward) Harbor stops: later steps never got a folder.
    if (!excused) yield issue(stepDisplay, "step folder is missing; the trial's other steps were imported");
    return { name, steps: [], reward: statedReward(result), failureMode };
  }
  into.homes.push({ dir: stepDir, display: stepDisplay });
  const part: StepPart = { name, steps: [], failureMode };

  const trajFile = path.join(stepDir, "agent", "trajectory.json");
  let draft: TrajectoryDraft | undefined;
  if (exists(trajFile)) {
    for await (const rec of readAtifFile(await fileSource(trajFile, `${stepDisplay}/agent/trajectory.json`), ctx)) {
      if (!rec.ok) yield rec;
      else if (!draft) draft = rec.value.trajectory;
      // Linked to this step's trajectory, which becomes part of the trial's: stepIds lets the caller re-link them.
      else into.embedded.push(rec.value.trajectory);
    }
  }
  const castFile = path.join(stepDir, "agent", "recording.cast");
  const cast = exists(castFile) ? await parseAsciicast(await fileSource(castFile, `${stepDisplay}/agent/recording.cast`)) : undefined;
  for (const i of cast?.issues ?? []) yield { ok: false, issue: i };
  part.recording = cast?.recording ?? undefined;
  if (draft) {
    if (draft.id) into.stepIds.push(draft.id);
    Object.assign(part, {
      steps: draft.steps,
      startedAt: draft.startedAt,
      endedAt: draft.endedAt,
      agent: draft.run.agent,
      model: draft.run.model,
      inputTokens: draft.inputTokens,
      outputTokens: draft.outputTokens,
    });
  } else if (cast?.recording) {
    const parts = castTrajectoryParts({ ...cast, recording: cast.recording });
    Object.assign(part, { steps: parts.steps, startedAt: parts.startedAt, endedAt: parts.endedAt });
  } else if (!exists(trajFile) && !excused) {
    yield issue(stepDisplay, "step has no agent/trajectory.json or agent/recording.cast; imported without its steps");
  }

  part.reward = statedReward(result);
  if (part.reward === undefined) {
    const { reward, record } = await verifierReward(stepDir, stepDisplay, undefined);
    if (record) yield record;
    part.reward = reward;
  }
  part.verifierText = await readTextTail(path.join(stepDir, "verifier", "test-stdout.txt"), outputBytes);
  return part;
}

/** Last moment a step part covers, in ms after its own start. */
function partDurationMs(p: StepPart): number {
  const lastStep = p.steps.reduce((n, s) => Math.max(n, s.offsetMs ?? 0), 0);
  const cast = Math.round((p.recording?.events.at(-1)?.[0] ?? 0) * 1000);
  const span = p.startedAt && p.endedAt ? Date.parse(p.endedAt) - Date.parse(p.startedAt) : 0;
  return Math.max(lastStep, cast, Number.isFinite(span) ? span : 0);
}

/**
 * One timeline for all steps: each step's offsets (and recording) are shifted to where the step started relative to
 * the first one, or — without timestamps — to where the previous step ended. Recordings are joined with a marker per
 * step (and a resize when the terminal size changed), so a replay shows where each task-step begins.
 */
function joinTimeline(parts: StepPart[]): { steps: StepInput[]; recording?: RecordingInput; spans: HarborStep[] } {
  const base = Date.parse(parts.find((p) => p.startedAt)?.startedAt ?? "");
  const steps: StepInput[] = [];
  const spans: HarborStep[] = [];
  const first = parts.find((p) => p.recording)?.recording;
  const events: RecordingEvent[] = [];
  let size = first ? `${first.width}x${first.height}` : "";
  let cursor = 0;
  for (const p of parts) {
    const start = Date.parse(p.startedAt ?? "");
    const at = Number.isFinite(base) && Number.isFinite(start) ? Math.max(cursor, start - base) : cursor;
    spans.push({
      name: p.name,
      firstStep: steps.length,
      stepCount: p.steps.length,
      reward: p.reward ?? null,
      ...(p.failureMode ? { failureMode: p.failureMode } : {}),
    });
    for (const s of p.steps) steps.push(s.offsetMs === undefined ? s : { ...s, offsetMs: at + s.offsetMs });
    if (p.recording && first) {
      const t0 = at / 1000;
      events.push([t0, "m", `step: ${p.name}`]);
      const stepSize = `${p.recording.width}x${p.recording.height}`;
      if (stepSize !== size) events.push([t0, "r", (size = stepSize)]);
      for (const [t, code, data] of p.recording.events) events.push([t0 + t, code, data]);
    }
    cursor = at + partDurationMs(p);
  }
  return { steps, spans, recording: first ? { ...first, events } : undefined };
}

const sum = (values: (number | undefined)[]) =>
  values.some((v) => v !== undefined) ? values.reduce<number>((n, v) => n + (v ?? 0), 0) : undefined;

/** Read every step of a multi-step trial into one trajectory draft (trial-level outcome is the caller's). */
export async function* readStepsTrajectory(
  dir: string,
  display: string,
  ctx: AtifContext & { runName: string },
  stepResults: readonly unknown[],
  excused: boolean,
): AsyncGenerator<ImportRecord, StepsTrajectory> {
  const order = yield* orderSteps(dir, display, stepResults);
  const withOutput = order.filter((s) => exists(path.join(dir, "steps", s.name, "verifier", "test-stdout.txt"))).length;
  // Room for each step's header line and the tail's omission marker.
  const outputBytes = Math.max(MIN_STEP_OUTPUT_BYTES, Math.floor(SIDE_TEXT_BYTES / Math.max(1, withOutput)) - 128);
  const out: Pick<StepsTrajectory, "embedded" | "homes" | "stepIds"> = { embedded: [], homes: [], stepIds: [] };
  const parts: StepPart[] = [];
  for (const { name, result } of order) {
    const stepExcused = excused || !!result?.exception_info?.exception_type;
    parts.push(
      yield* readStep(path.join(dir, "steps", name), `${display}/steps/${name}`, name, result, ctx, stepExcused, outputBytes, out),
    );
  }
  if (!parts.length) yield issue(display, "multi-step trial has no step folders under steps/; imported its outcome without steps");

  const { steps, recording, spans } = joinTimeline(parts);
  const known = parts.filter((p) => p.reward !== undefined);
  // Harbor's default multi_step_reward_strategy is "mean"; a step without a reward counts as 0, so the trial passes
  // only when every step did.
  const reward = known.length ? parts.reduce((n, p) => n + (p.reward ?? 0), 0) / parts.length : undefined;
  const texts = parts.filter((p) => p.verifierText).map((p) => `=== step ${p.name} ===\n${p.verifierText}`);
  let verifierOutput = texts.length ? texts.join("\n") : undefined;
  // Many steps with the per-step minimum could add up past the usual bound: keep the end, where the last steps are.
  if (verifierOutput && verifierOutput.length > SIDE_TEXT_BYTES)
    verifierOutput = `[… ${verifierOutput.length - SIDE_TEXT_BYTES} characters of earlier steps omitted …]\n${verifierOutput.slice(-SIDE_TEXT_BYTES)}`;
  const agentOf = parts.find((p) => p.agent);
  const draft: TrajectoryDraft = {
    task: ctx.task,
    run: {
      name: ctx.runName,
      ...(agentOf?.agent ? { agent: agentOf.agent } : {}),
      ...(parts.find((p) => p.model)?.model ? { model: parts.find((p) => p.model)?.model } : {}),
    },
    steps,
    startedAt: parts.find((p) => p.startedAt)?.startedAt,
    endedAt: parts.findLast((p) => p.endedAt)?.endedAt,
    inputTokens: sum(parts.map((p) => p.inputTokens)),
    outputTokens: sum(parts.map((p) => p.outputTokens)),
    recording,
    metadata: { ...ctx.extra, harborSteps: spans },
  };
  return { ...out, draft, reward, verifierOutput, failureMode: parts.find((p) => p.failureMode)?.failureMode };
}
