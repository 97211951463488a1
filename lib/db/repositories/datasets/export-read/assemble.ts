// Flat rows (arrays, in the column order of columns.ts) → trajectories in native form. Both providers' readers feed
// this, so SQLite and PostgreSQL exports are built by one piece of code. Objects are built key by key in the order
// the native format has always used (JSON.stringify follows insertion order: the export stays byte-identical), and
// absent values are simply not set instead of being set to undefined and deleted afterwards.
import { z } from "zod";
import { labelRefOf, type ExportLabel, type StoredTrajectory } from "../../../../domain/curation/types.ts";
import { toolCallSchema, type RecordingEvent, type StepInput, type ToolCall, type TrajectoryInput } from "../../../../domain/trajectory.ts";
import { A, B, R, S } from "./columns.ts";

/** A provider's cells as the assembler needs them: dates as ISO-8601 text ending in Z, booleans as booleans. */
export interface CellReader {
  iso(v: unknown): string;
  bool(v: unknown): boolean;
}

const EVENT_CODES = new Set(["o", "i", "m", "r", "x"]);
/** Chunks are written by our own importer; a cheap structural check per event (zod per event costs more than the export). */
function pushChunkEvents(out: RecordingEvent[], text: string, what: string): void {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`stored ${what} is malformed: not an array`);
  for (const e of raw as unknown[]) {
    if (!Array.isArray(e) || typeof e[0] !== "number" || !EVENT_CODES.has(e[1] as string) || typeof e[2] !== "string")
      throw new Error(`stored ${what} is malformed: bad event`);
    out.push([e[0] / 1000, e[1] as RecordingEvent[1], e[2]]);
  }
}
/**
 * A step's stored tool calls, checked as `z.array(toolCallSchema)` would and giving the same value (keys in the
 * schema's order, unknown keys dropped), without zod: zod per step was ~5 % of an export's CPU time.
 */
export function parseToolCalls(text: string, what: string): ToolCall[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`stored ${what} is malformed: not an array`);
  const out: ToolCall[] = [];
  for (const c of raw as unknown[]) {
    if (typeof c !== "object" || c === null || Array.isArray(c)) throw new Error(`stored ${what} is malformed: not an object`);
    const o = c as Record<string, unknown>;
    if (o.id !== undefined && typeof o.id !== "string") throw new Error(`stored ${what} is malformed: id is not a string`);
    if (typeof o.name !== "string") throw new Error(`stored ${what} is malformed: name is not a string`);
    const call: Record<string, unknown> = {};
    if (o.id !== undefined) call.id = o.id;
    call.name = o.name;
    if (o.arguments !== undefined) call.arguments = o.arguments;
    out.push(call as ToolCall);
  }
  return out;
}
/** The same check with zod (the tests hold parseToolCalls to it). */
export const toolCallsSchema = z.array(toolCallSchema);
const jsonObject = z.record(z.string(), z.unknown());

function parseJson<T>(text: string | null, schema: z.ZodType<T>, what: string): T | undefined {
  if (text === null) return undefined;
  const r = schema.safeParse(JSON.parse(text));
  if (!r.success) throw new Error(`stored ${what} is malformed: ${r.error.issues[0]?.message}`);
  return r.data;
}

type Cells = readonly unknown[];
const str = (v: unknown) => v as string;
const num = (v: unknown) => v as number;

/** One trajectory being assembled from its rows. */
export interface Pending {
  base: Cells;
  steps: StepInput[];
  labels: ExportLabel[];
  recording: { format: string; width: number; height: number; header: string | null; events: RecordingEvent[] } | null;
}

export function pendingOf(base: Cells): Pending {
  return { base, steps: [], labels: [], recording: null };
}

/** A Step row → the step as the native format has it (nulls absent, isCopiedContext only when true). */
export function stepOf(r: Cells, c: CellReader): StepInput {
  const s: Record<string, unknown> = { source: r[S.source] };
  if (r[S.timestamp] !== null) s.timestamp = c.iso(r[S.timestamp]);
  if (r[S.offsetMs] !== null) s.offsetMs = r[S.offsetMs];
  if (r[S.message] !== null) s.message = r[S.message];
  if (r[S.reasoning] !== null) s.reasoning = r[S.reasoning];
  if (r[S.action] !== null) s.action = r[S.action];
  if (r[S.toolCalls] !== null)
    s.toolCalls = parseToolCalls(str(r[S.toolCalls]), `tool calls of ${str(r[S.trajectoryId])}#${num(r[S.index])}`);
  if (r[S.observation] !== null) s.observation = r[S.observation];
  if (r[S.exitCode] !== null) s.exitCode = r[S.exitCode];
  if (r[S.promptTokens] !== null) s.promptTokens = r[S.promptTokens];
  if (r[S.completionTokens] !== null) s.completionTokens = r[S.completionTokens];
  if (c.bool(r[S.isCopiedContext])) s.isCopiedContext = true;
  return s as unknown as StepInput;
}

/** An Annotation row (with its schema key, annotator name and fork-point step) → an exported label. */
export function labelOf(r: Cells, c: CellReader): ExportLabel {
  return {
    schema: str(r[A.schema]),
    annotator: str(r[A.annotator]),
    targetType: str(r[A.targetType]),
    stepStart: r[A.stepStart] as number | null,
    stepEnd: r[A.stepEnd] as number | null,
    forkStepIndex: r[A.forkStepIndex] as number | null,
    value: str(r[A.value]),
    comment: r[A.comment] as string | null,
    createdAt: c.iso(r[A.createdAt]),
    updatedAt: c.iso(r[A.updatedAt]),
  };
}

export function recordingOf(r: Cells): NonNullable<Pending["recording"]> {
  return { format: str(r[R.format]), width: num(r[R.width]), height: num(r[R.height]), header: r[R.header] as string | null, events: [] };
}

export function addChunk(p: Pending, events: string): void {
  pushChunkEvents(p.recording!.events, events, `recording chunk of ${str(p.base[B.id])}`);
}

/** Copy `keys` of a row into an object, skipping nulls (the order of `keys` is the order of the output). */
function present(r: Cells, keys: readonly (readonly [string, number])[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, i] of keys) if (r[i] !== null) o[k] = r[i];
  return o;
}
const TASK_KEYS = [
  ["benchmark", B.taskBenchmark],
  ["id", B.taskExternalId],
  ["name", B.taskName],
  ["instruction", B.taskInstruction],
  ["category", B.taskCategory],
  ["difficulty", B.taskDifficulty],
] as const;
const RUN_KEYS = [
  ["name", B.runName],
  ["model", B.runModel],
  ["agent", B.runAgent],
  ["checkpoint", B.runCheckpoint],
  ["trainingMethod", B.runTrainingMethod],
  ["source", B.runSource],
] as const;

export function storedOf(p: Pending, c: CellReader): StoredTrajectory {
  const r = p.base;
  const id = str(r[B.id]);
  const meta = parseJson(r[B.metadata] as string | null, jsonObject, `metadata of ${id}`);
  // The importer keeps the source's fork reference inside metadata; it is emitted as `fork` instead.
  const { fork: _fork, ...metadata } = meta ?? {};
  const t: Record<string, unknown> = {
    format: "reterm.trajectory.v1",
    id: r[B.externalId] ?? id,
    task: present(r, TASK_KEYS),
    run: present(r, RUN_KEYS),
    outcome: r[B.outcome],
  };
  if (r[B.reward] !== null) t.reward = r[B.reward];
  if (r[B.verifierOutput] !== null) t.verifierOutput = r[B.verifierOutput];
  if (r[B.failureMode] !== null) t.failureMode = r[B.failureMode];
  if (r[B.startedAt] !== null) t.startedAt = c.iso(r[B.startedAt]);
  if (r[B.endedAt] !== null) t.endedAt = c.iso(r[B.endedAt]);
  if (r[B.inputTokens] !== null) t.inputTokens = r[B.inputTokens];
  if (r[B.outputTokens] !== null) t.outputTokens = r[B.outputTokens];
  t.steps = p.steps;
  if (p.recording) {
    const rec = p.recording;
    t.recording = {
      format: rec.format,
      width: rec.width,
      height: rec.height,
      ...(rec.header ? { header: parseJson(rec.header, jsonObject, `recording header of ${id}`) } : {}),
      events: rec.events,
    };
  }
  // A fork link needs the parent row (a dangling parentId is not one) and the fork step.
  if (r[B.parentId] !== null && r[B.parentExists] !== null && r[B.forkStepIndex] !== null) {
    const fork: Record<string, unknown> = { parentId: r[B.parentExternalId] ?? r[B.parentId], stepIndex: r[B.forkStepIndex] };
    if (r[B.attemptIndex] !== null) fork.attemptIndex = r[B.attemptIndex];
    if (r[B.forkErrorCategory] !== null) fork.errorCategory = r[B.forkErrorCategory];
    t.fork = fork;
  }
  if (Object.keys(metadata).length) t.metadata = metadata;
  if (p.labels.length) t.labels = p.labels.map(labelRefOf);
  return {
    dbId: id,
    trajectory: t as unknown as TrajectoryInput,
    parentDbId: r[B.parentId] as string | null,
    errorCategory: r[B.firstErrorCategory] as string | null,
    labels: p.labels,
  };
}
