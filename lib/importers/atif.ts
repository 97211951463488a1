// ATIF trajectory files (Harbor `trajectory.json`, ATIF-v1.0…v1.7), read on their own — outside a Harbor trial the
// task is derived from the file name and the outcome is unknown (ATIF does not record it).
//
// Continuations: a head file with `continued_trajectory_ref` is read together with its segments as one trajectory.
// A continuation file (`*.cont-N.json`) whose head sits next to it and references it (directly or through earlier
// segments) yields nothing: its steps arrive with the head. Without such a head it is imported on its own.
// Sub-agents (`*.summarization-N-*.json`, embedded `subagent_trajectories`) become trajectories of their own with
// `metadata.subagentOf` = the parent's id; they are context-management helpers, not recovery attempts.
import type { TrajectoryDraft } from "../domain/trajectory.ts";
import type { ImportRecord, Importer, ImportSource, ReadOptions } from "./types.ts";
import {
  atifParts,
  isChainedContinuation,
  isSubagentFile,
  parseAtif,
  readContinuations,
  runName,
  subagentParentFile,
  type AtifDocument,
} from "./atif-steps.ts";
import { readJsonFile, taskIdFromPath } from "./trial-files.ts";
import { normalized, readJson, withWarnings } from "./util.ts";

const ATIF_HEAD = /"schema_version"\s*:\s*"ATIF-v/;

/** What the caller knows better than the file (the Harbor importer: the trial's task, its job as run, trial metadata). */
export interface AtifContext {
  task: { benchmark: string; id: string; name?: string; instruction?: string };
  runName?: string;
  extra?: Record<string, unknown>;
}

/** A sub-agent's link to its parent; `key` tells it apart when it shares the parent's session id. */
export interface SubagentLink {
  parentId?: string;
  key: string;
}

/** Draft for one ATIF trajectory given as its segments. */
export function atifDraft(segments: AtifDocument[], ctx: AtifContext, sub?: SubagentLink): TrajectoryDraft {
  const parts = atifParts(segments);
  // ATIF v1.7 lets a sub-agent share its parent's session id: derive a distinct id from the parent's.
  const shared = sub?.parentId && (!parts.id || parts.id === sub.parentId);
  const id = shared ? `${sub.parentId}/${sub.key}`.slice(0, 200) : parts.id;
  return {
    id,
    task: ctx.task,
    run: { name: ctx.runName ?? runName(parts.agent, parts.model), agent: parts.agent, model: parts.model },
    outcome: "unknown",
    steps: parts.steps,
    inputTokens: parts.inputTokens,
    outputTokens: parts.outputTokens,
    startedAt: parts.startedAt,
    endedAt: parts.endedAt,
    fork: sub ? undefined : parts.fork,
    metadata: {
      ...parts.metadata,
      ...(sub ? { subagent: true, ...(sub.parentId ? { subagentOf: sub.parentId } : {}) } : {}),
      ...ctx.extra,
    },
  };
}

/** Embedded v1.7 sub-agent trajectories, each validated on its own so one bad child does not drop the others. */
export function* embeddedSubagents(
  head: AtifDocument,
  parentId: string | undefined,
  ctx: AtifContext,
  file: string,
): Generator<ImportRecord> {
  for (const [i, child] of (head.subagent_trajectories ?? []).entries()) {
    const parsed = parseAtif(child, file, `subagent_trajectories[${i}]`);
    if (!parsed.ok) {
      yield parsed.record;
      continue;
    }
    yield normalized(atifDraft([parsed.doc], ctx, { parentId, key: `subagent-${i + 1}` }), "atif", file);
  }
}

/** The id of a sub-agent file's parent: stated by Terminus in agent.extra, else read from the parent file. */
export async function subagentParentId(doc: AtifDocument, file: string): Promise<string | undefined> {
  const stated = doc.agent.extra?.parent_session_id;
  if (typeof stated === "string" && stated) return `atif:${stated}`;
  const parentFile = subagentParentFile(file);
  if (!parentFile) return undefined;
  const json = await readJsonFile(parentFile, parentFile);
  const parsed = json.ok ? parseAtif(json.value, parentFile) : undefined;
  return parsed?.ok ? atifParts([parsed.doc]).id : undefined;
}

function subagentKey(file: string, doc: AtifDocument): string {
  return /\.(summarization-\d+-[\w-]+)\.json(?:\.gz)?$/i.exec(file)?.[1] ?? doc.agent.name;
}

/** Read one ATIF file (with its continuations) into records; `ctx` overrides what the file cannot know. */
export async function* readAtifFile(source: Extract<ImportSource, { kind: "file" }>, ctx: AtifContext): AsyncGenerator<ImportRecord> {
  const file = source.displayPath;
  const json = await readJson(source);
  if (!json.ok) return yield json.record;
  const parsed = parseAtif(json.value, file);
  if (!parsed.ok) return yield parsed.record;
  const { segments, issues } = await readContinuations(parsed.doc, source.path, file);
  // A continuation that cannot be read leaves the trajectory incomplete: it is imported with the problem kept.
  const warnings = issues.flatMap((r) => (r.ok ? [] : [r.issue]));
  const isSubagent = isSubagentFile(source.path) || typeof parsed.doc.agent.extra?.parent_session_id === "string";
  const sub = isSubagent
    ? { parentId: await subagentParentId(parsed.doc, source.path), key: subagentKey(source.path, parsed.doc) }
    : undefined;
  const draft = atifDraft(segments, ctx, sub);
  yield withWarnings(normalized(draft, "atif", file), warnings);
  yield* embeddedSubagents(parsed.doc, draft.id, ctx, file);
}

export const atifImporter: Importer = {
  format: "atif",
  label: "ATIF trajectory (Harbor trajectory.json)",
  detect(source) {
    if (source.kind !== "file") return 0;
    return ATIF_HEAD.test(source.head) ? 0.95 : 0;
  },
  async *read(source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
    if (source.kind !== "file") return;
    if (await isChainedContinuation(source.path)) return;
    yield* readAtifFile(source, { task: { benchmark: "unknown", id: taskIdFromPath(source.path) }, runName: options.runName });
  },
};
