// Read trajectories back in native form (lossless: steps, recording, fork link, labels) for export, in batches.
import type { Db, Prisma } from "../../client.ts";
import { labelRefOf, type ExportLabel, type StoredTrajectory } from "../../../domain/curation/types.ts";
import type { RecordingEvent, TrajectoryInput } from "../../../domain/trajectory.ts";
import { toolCallSchema } from "../../../domain/trajectory.ts";
import { z } from "zod";

const EVENT_CODES = new Set(["o", "i", "m", "r", "x"]);
/** Chunks are written by our own importer; a cheap structural check per event (zod per event costs more than the export). */
function chunkEvents(text: string, what: string): RecordingEvent[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`stored ${what} is malformed: not an array`);
  return raw.map((e: unknown) => {
    if (!Array.isArray(e) || typeof e[0] !== "number" || !EVENT_CODES.has(e[1] as string) || typeof e[2] !== "string") throw new Error(`stored ${what} is malformed: bad event`);
    return [e[0] / 1000, e[1] as RecordingEvent[1], e[2]];
  });
}
const toolCallsSchema = z.array(toolCallSchema);
const jsonObject = z.record(z.string(), z.unknown());

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

function parseJson<T>(text: string | null, schema: z.ZodType<T>, what: string): T | undefined {
  if (text === null) return undefined;
  const r = schema.safeParse(JSON.parse(text));
  if (!r.success) throw new Error(`stored ${what} is malformed: ${r.error.issues[0]?.message}`);
  return r.data;
}

const INCLUDE = {
  task: true,
  run: true,
  parent: { select: { id: true, externalId: true } },
  forkPoint: { select: { errorCategory: true } },
  steps: { orderBy: { index: "asc" } },
  recording: { include: { chunks: { orderBy: { seq: "asc" } } } },
  annotations: { include: { schema: { select: { key: true } }, annotator: { select: { name: true } }, forkPoint: { select: { stepIndex: true } } }, orderBy: { id: "asc" } },
} satisfies Prisma.TrajectoryInclude;

/** What an export needs: chat formats skip recordings, label formats skip steps too. */
export interface ReadDepth {
  steps: boolean;
  recording: boolean;
}
const FULL: ReadDepth = { steps: true, recording: true };

// Typed as the full include; a lighter read leaves `steps` / `recording` out, which toStored() treats as empty.
type Row = Prisma.TrajectoryGetPayload<{ include: typeof INCLUDE }>;
const load = (db: Db, ids: string[], depth: ReadDepth) =>
  db.trajectory.findMany({ where: { id: { in: ids } }, include: { ...INCLUDE, steps: depth.steps ? INCLUDE.steps : false, recording: depth.recording ? INCLUDE.recording : false } }) as Promise<Row[]>;

function toLabels(r: Row): ExportLabel[] {
  return r.annotations.map((a) => ({
    schema: a.schema.key, annotator: a.annotator.name, targetType: a.targetType, stepStart: a.stepStart, stepEnd: a.stepEnd,
    forkStepIndex: a.forkPoint?.stepIndex ?? null, value: a.value, comment: a.comment, createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString(),
  }));
}

function toStored(r: Row): StoredTrajectory {
  const meta = parseJson(r.metadata, jsonObject, `metadata of ${r.id}`);
  // The importer keeps the source's fork reference inside metadata; it is emitted as `fork` instead.
  const { fork: _fork, ...metadata } = meta ?? {};
  let recording: TrajectoryInput["recording"];
  if (r.recording) {
    const events: RecordingEvent[] = [];
    for (const ch of r.recording.chunks) for (const e of chunkEvents(ch.events, `recording chunk of ${r.id}`)) events.push(e);
    recording = {
      format: r.recording.format as NonNullable<TrajectoryInput["recording"]>["format"], width: r.recording.width, height: r.recording.height,
      ...(r.recording.header ? { header: parseJson(r.recording.header, jsonObject, `recording header of ${r.id}`) } : {}), events,
    };
  }
  const labels = toLabels(r);
  const trajectory: TrajectoryInput = {
    format: "reterm.trajectory.v1",
    id: r.externalId ?? r.id,
    task: { benchmark: r.task.benchmark, id: r.task.externalId, name: r.task.name, instruction: opt(r.task.instruction), category: opt(r.task.category), difficulty: opt(r.task.difficulty) },
    run: { name: r.run.name, model: opt(r.run.model), agent: opt(r.run.agent), checkpoint: opt(r.run.checkpoint), trainingMethod: opt(r.run.trainingMethod) as TrajectoryInput["run"]["trainingMethod"], source: opt(r.run.source) },
    outcome: r.outcome as TrajectoryInput["outcome"],
    reward: opt(r.reward),
    verifierOutput: opt(r.verifierOutput),
    failureMode: opt(r.failureMode),
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
    inputTokens: opt(r.inputTokens),
    outputTokens: opt(r.outputTokens),
    steps: (r.steps ?? []).map((s) => ({
      source: s.source as TrajectoryInput["steps"][number]["source"], timestamp: iso(s.timestamp), offsetMs: opt(s.offsetMs), message: opt(s.message), reasoning: opt(s.reasoning),
      action: opt(s.action), toolCalls: parseJson(s.toolCalls, toolCallsSchema, `tool calls of ${r.id}#${s.index}`), observation: opt(s.observation), exitCode: opt(s.exitCode),
      promptTokens: opt(s.promptTokens), completionTokens: opt(s.completionTokens), isCopiedContext: s.isCopiedContext || undefined,
    })),
    recording,
    fork: r.parent && r.forkStepIndex !== null
      ? { parentId: r.parent.externalId ?? r.parent.id, stepIndex: r.forkStepIndex, attemptIndex: opt(r.attemptIndex), errorCategory: opt(r.forkPoint?.errorCategory ?? null) }
      : undefined,
    metadata: Object.keys(metadata).length ? metadata : undefined,
    labels: labels.length ? labels.map(labelRefOf) : undefined,
  };
  return { dbId: r.id, trajectory: dropUndefined(trajectory), parentDbId: r.parentId, errorCategory: r.firstErrorCategory, labels };
}

/** JSON.stringify drops undefined keys anyway; dropping them here keeps objects comparable in tests. */
function dropUndefined<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Trajectories by database id, in native form. Missing ids are absent from the map. */
export async function findStoredTrajectories(db: Db, ids: string[], depth: ReadDepth = FULL): Promise<Map<string, StoredTrajectory>> {
  if (!ids.length) return new Map();
  const rows = await load(db, [...new Set(ids)], depth);
  return new Map(rows.map((r) => [r.id, toStored(r)]));
}
