// Turns a normalized trajectory into the exact rows the bulk writers insert (column order = SQL column lists).
import { sortableId } from "./ids.ts";
import { detectErrors, detectorText } from "../../domain/error-detector.ts";
import { signatureOf } from "../../domain/failure-modes/index.ts";
import { stepContentHash, trajectoryContentHash } from "../../domain/hash.ts";
import type { NormalizedTrajectory, RecordingInput } from "../../domain/trajectory.ts";

export type Cell = string | number | boolean | null;

export const TRAJECTORY_COLUMNS = [
  "id",
  "externalId",
  "contentHash",
  "taskId",
  "runId",
  "outcome",
  "reward",
  "verifierOutput",
  "failureMode",
  "startedAt",
  "endedAt",
  "durationMs",
  "stepCount",
  "errorStepCount",
  "inputTokens",
  "outputTokens",
  "sourceFormat",
  "sourceFile",
  "metadata",
  "firstErrorCategory",
  "firstErrorStep",
  "importJobId",
  "importedAt",
  "pendingParentRef",
  "importWarnings",
  "warningCount",
] as const;
export const STEP_COLUMNS = [
  "trajectoryId",
  "index",
  "source",
  "timestamp",
  "offsetMs",
  "message",
  "reasoning",
  "action",
  "toolCalls",
  "observation",
  "exitCode",
  "promptTokens",
  "completionTokens",
  "isError",
  "isCopiedContext",
  "contentHash",
] as const;
export const ERROR_COLUMNS = ["id", "trajectoryId", "stepIndex", "category", "signal", "excerpt", "confidence"] as const;
export const SIGNATURE_COLUMNS = [
  "trajectoryId",
  "stepIndex",
  "templateHash",
  "template",
  "kind",
  "values",
  "value",
  "category",
  "runId",
  "taskId",
  "outcome",
  "importedAt",
] as const;
/** Where a signature row takes its trajectory's task and run ids (filled in by the writer, like the trajectory's). */
export const SIGNATURE_RUN_AT = 8;
export const SIGNATURE_TASK_AT = 9;
export const RECORDING_COLUMNS = [
  "id",
  "trajectoryId",
  "format",
  "width",
  "height",
  "durationMs",
  "eventCount",
  "byteSize",
  "header",
  "createdAt",
] as const;
export const CHUNK_COLUMNS = ["recordingId", "seq", "startMs", "endMs", "events"] as const;

/** Booleans and dates in the form each provider's Prisma adapter reads back. */
export interface CellCodec {
  bool(b: boolean): Cell;
  date(d: Date): Cell;
}

/** Plain data (no closures) so a batch can be posted to a writer thread. */
export interface PreparedTrajectory {
  id: string;
  externalId: string | null;
  contentHash: string;
  task: {
    benchmark: string;
    externalId: string;
    name: string;
    instruction: string | null;
    category: string | null;
    difficulty: string | null;
  };
  run: {
    name: string;
    model: string | null;
    agent: string | null;
    checkpoint: string | null;
    trainingMethod: string | null;
    source: string | null;
  };
  /** Same order as TRAJECTORY_COLUMNS; taskId and runId (TASK_ID_AT, RUN_ID_AT) are filled in by the writer. */
  row: Cell[];
  steps: Cell[][];
  errors: Cell[][];
  /** FailureSignature rows (SIGNATURE_COLUMNS), one per failing step outside copied context. */
  signatures: Cell[][];
  recording: { row: Cell[]; chunks: Cell[][] } | null;
  stepCount: number;
  /** Characters of terminal output (observations and recording): what opening its replay has to go through. */
  outputChars: number;
  /** False until addDetectedErrors() has filled the error rows, isError cells and first-error columns. */
  detected: boolean;
  /** The fork link the source stated (a recovery attempt), with its parent by client id. */
  fork: { parentRef: string; stepIndex: number; attemptIndex: number | null; errorCategory: string | null } | null;
}

export const TASK_ID_AT = 3;
export const RUN_ID_AT = 4;

const CHUNK_BYTES = 64 * 1024;
const CHUNK_EVENTS = 2000;

/** Split a recording into time-ordered chunks so a long recording can be read in ranges. */
export function chunkRecording(rec: RecordingInput): { seq: number; startMs: number; endMs: number; events: string }[] {
  const chunks: { seq: number; startMs: number; endMs: number; events: string }[] = [];
  let current: [number, string, string][] = [];
  let bytes = 0;
  const flush = () => {
    if (!current.length) return;
    chunks.push({ seq: chunks.length, startMs: current[0]![0], endMs: current.at(-1)![0], events: JSON.stringify(current) });
    current = [];
    bytes = 0;
  };
  for (const [t, code, data] of rec.events) {
    current.push([Math.round(t * 1000), code, data]);
    bytes += data.length + 16;
    if (bytes >= CHUNK_BYTES || current.length >= CHUNK_EVENTS) flush();
  }
  flush();
  return chunks;
}

/** Stored warnings are capped: a source with a million bad lines still says how many, with the first ones. */
const MAX_STORED_WARNINGS = 100;
const warningsJson = (w: NormalizedTrajectory["warnings"]): string | null =>
  w?.length ? JSON.stringify(w.slice(0, MAX_STORED_WARNINGS).map((i) => ({ ...i, message: i.message.slice(0, 500) }))) : null;

const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
/** PostgreSQL text cannot hold NUL; terminal output sometimes does. Same replacement on both providers. */
const txt = (v: string | undefined): string | null =>
  v === undefined ? null : v.includes("\u0000") ? v.replaceAll("\u0000", "\uFFFD") : v;

/**
 * Rows for one trajectory, except what the error detector finds: writers call addDetectedErrors() on their own thread
 * (the SQLite writer thread has spare time; the importing thread has none). `contentHash` may be supplied by the
 * importer (e.g. the hash of the source line) to avoid serializing the trajectory again.
 */
export function prepareTrajectory(n: NormalizedTrajectory, c: CellCodec, importJobId: string | null): PreparedTrajectory {
  const t = n.trajectory;
  const id = sortableId();
  const contentHash = n.contentHash ?? trajectoryContentHash(t);
  const startedAt = t.startedAt ? new Date(t.startedAt) : null;
  const endedAt = t.endedAt ? new Date(t.endedAt) : null;
  const lastOffset = t.steps.reduce((m, s) => Math.max(m, s.offsetMs ?? 0), 0);
  // Without start and end times, a recording's own timeline (its last event) is how long it lasted; the last step's
  // offset is only when that step began.
  const lastEvent = t.recording?.events.at(-1);
  const recordingEndMs = lastEvent ? Math.round(lastEvent[0] * 1000) : 0;
  const durationMs =
    startedAt && endedAt ? Math.max(0, endedAt.getTime() - startedAt.getTime()) : Math.max(lastOffset, recordingEndMs) || null;
  const metadata = t.metadata || t.fork ? JSON.stringify({ ...t.metadata, ...(t.fork ? { fork: t.fork } : {}) }) : null;
  const now = c.date(new Date());
  const notError = c.bool(false);
  let recording: PreparedTrajectory["recording"] = null;
  let recordingChars = 0;
  if (t.recording) {
    const rec = t.recording;
    const recId = sortableId();
    const last = rec.events.at(-1);
    recordingChars = rec.events.reduce((s, e) => s + e[2].length, 0);
    recording = {
      row: [
        recId,
        id,
        rec.format,
        rec.width,
        rec.height,
        last ? Math.round(last[0] * 1000) : 0,
        rec.events.length,
        recordingChars,
        rec.header ? JSON.stringify(rec.header) : null,
        now,
      ],
      chunks: chunkRecording(rec).map((ch) => [recId, ch.seq, ch.startMs, ch.endMs, ch.events]),
    };
  }
  return {
    id,
    externalId: opt(t.id),
    contentHash,
    task: {
      benchmark: txt(t.task.benchmark)!,
      externalId: txt(t.task.id)!,
      name: txt(t.task.name ?? t.task.id)!,
      instruction: txt(t.task.instruction),
      category: txt(t.task.category),
      difficulty: txt(t.task.difficulty),
    },
    run: {
      name: t.run.name,
      model: opt(t.run.model),
      agent: opt(t.run.agent),
      checkpoint: opt(t.run.checkpoint),
      trainingMethod: opt(t.run.trainingMethod),
      source: opt(t.run.source),
    },
    stepCount: t.steps.length,
    outputChars: t.steps.reduce((n, s) => n + (s.observation?.length ?? 0), 0) + recordingChars,
    row: [
      id,
      opt(t.id),
      contentHash,
      null,
      null,
      t.outcome,
      t.reward ?? null,
      txt(t.verifierOutput),
      txt(t.failureMode),
      startedAt && c.date(startedAt),
      endedAt && c.date(endedAt),
      durationMs,
      t.steps.length,
      0,
      opt(t.inputTokens),
      opt(t.outputTokens),
      n.sourceFormat,
      opt(n.sourceFile),
      metadata,
      null,
      null,
      importJobId,
      now,
      t.fork?.parentId ?? null,
      warningsJson(n.warnings),
      n.warnings?.length ?? 0,
    ],
    steps: t.steps.map((s, index) => [
      id,
      index,
      s.source,
      s.timestamp ? c.date(new Date(s.timestamp)) : null,
      opt(s.offsetMs),
      txt(s.message),
      txt(s.reasoning),
      txt(s.action),
      s.toolCalls ? JSON.stringify(s.toolCalls) : null,
      txt(s.observation),
      opt(s.exitCode),
      opt(s.promptTokens),
      opt(s.completionTokens),
      notError,
      c.bool(s.isCopiedContext ?? false),
      stepContentHash(s),
    ]),
    errors: [],
    signatures: [],
    recording,
    detected: false,
    fork: t.fork
      ? {
          parentRef: t.fork.parentId,
          stepIndex: t.fork.stepIndex,
          attemptIndex: t.fork.attemptIndex ?? null,
          errorCategory: t.fork.errorCategory ?? null,
        }
      : null,
  };
}

const STEP_AT = columnIndex(STEP_COLUMNS);
export const TRAJECTORY_AT = columnIndex(TRAJECTORY_COLUMNS);

function columnIndex<C extends string>(cols: readonly C[]): Record<C, number> {
  return Object.fromEntries(cols.map((c, i) => [c, i])) as Record<C, number>;
}

/**
 * Run the error detector over a prepared trajectory's step rows and fill in what it finds: DetectedError rows, each
 * step's isError, and the trajectory's error-step count and first error (the first not in copied context). Idempotent.
 */
export function addDetectedErrors(p: PreparedTrajectory, c: CellCodec): void {
  if (p.detected) return;
  p.detected = true;
  const steps = p.steps.map((row) => {
    const observation = row[STEP_AT.observation];
    const exitCode = row[STEP_AT.exitCode];
    return {
      observation: typeof observation === "string" ? observation : undefined,
      exitCode: typeof exitCode === "number" ? exitCode : undefined,
    };
  });
  const detected = detectErrors(steps);
  if (!detected.length) return;
  const isError = c.bool(true);
  for (const d of detected) p.steps[d.stepIndex]![STEP_AT.isError] = isError;
  const first = detected.find((d) => !p.steps[d.stepIndex]![STEP_AT.isCopiedContext]) ?? detected[0]!;
  p.row[TRAJECTORY_AT.errorStepCount] = new Set(detected.map((d) => d.stepIndex)).size;
  p.row[TRAJECTORY_AT.firstErrorCategory] = first.category;
  p.row[TRAJECTORY_AT.firstErrorStep] = first.stepIndex;
  p.errors = detected.map((d) => [sortableId(), p.id, d.stepIndex, d.category, d.signal, d.excerpt, d.confidence]);
  p.signatures = signatureRows(p, detected);
}

/**
 * Failure signatures of the detected steps. Steps copied from an earlier trajectory as context are left out: their
 * failure is counted once, in the trajectory where it happened.
 */
function signatureRows(p: PreparedTrajectory, detected: ReturnType<typeof detectErrors>): Cell[][] {
  const rows: Cell[][] = [];
  for (const d of detected) {
    const step = p.steps[d.stepIndex]!;
    if (step[STEP_AT.isCopiedContext] === true || step[STEP_AT.isCopiedContext] === 1) continue;
    const observation = step[STEP_AT.observation];
    const s = signatureOf(d, detectorText(typeof observation === "string" ? observation : undefined));
    rows.push([
      p.id,
      d.stepIndex,
      s.templateHash,
      s.template,
      s.kind,
      JSON.stringify(s.values),
      s.values[0] ?? null,
      s.category,
      null,
      null,
      p.row[TRAJECTORY_AT.outcome]!,
      p.row[TRAJECTORY_AT.importedAt]!,
    ]);
  }
  return rows;
}
