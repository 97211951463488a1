// Read side of one trajectory: its detail (task, run, forks, detected errors) and its steps in ranges.
import { z } from "zod";
import type { Db } from "../../client.ts";

export interface StepView {
  index: number;
  source: string;
  offsetMs: number | null;
  message: string | null;
  reasoning: string | null;
  action: string | null;
  observation: string | null;
  exitCode: number | null;
  isError: boolean;
  isCopiedContext: boolean;
}

export interface TrajectoryDetail {
  id: string;
  externalId: string | null;
  outcome: string;
  reward: number | null;
  verifierOutput: string | null;
  failureMode: string | null;
  startedAt: string | null;
  durationMs: number | null;
  stepCount: number;
  sourceFormat: string;
  sourceFile: string | null;
  task: { id: string; name: string; instruction: string | null; category: string | null; difficulty: string | null; benchmark: string };
  run: { id: string; name: string; model: string | null; agent: string | null; checkpoint: string | null; trainingMethod: string | null };
  parent: { id: string; forkStepIndex: number | null; attemptIndex: number | null } | null;
  forkPoints: {
    id: string;
    stepIndex: number;
    errorCategory: string | null;
    attempts: { id: string; outcome: string; reward: number | null; stepCount: number; attemptIndex: number | null }[];
  }[];
  detectedErrors: { stepIndex: number; category: string; signal: string; excerpt: string | null }[];
  hasRecording: boolean;
  /** What could not be read of its source when it was imported (the first 100 are kept), and how many there were. */
  importWarnings: { file: string; line?: number; path?: string; message: string }[];
  warningCount: number;
}

const storedWarningsSchema = z.array(
  z.object({ file: z.string(), line: z.number().optional(), path: z.string().optional(), message: z.string() }),
);

/** Stored warnings are opaque JSON: anything unreadable counts as none listed (the count still shows). */
function parseWarnings(json: string | null): TrajectoryDetail["importWarnings"] {
  if (!json) return [];
  try {
    const r = storedWarningsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : [];
  } catch {
    return [];
  }
}

/**
 * Internal id of a trajectory named by its id or, failing that, its client-supplied id (externalId) — so links
 * built from a training pipeline's own ids work too.
 */
export async function resolveTrajectoryId(db: Db, idOrExternal: string): Promise<string | null> {
  const byId = await db.trajectory.findUnique({ where: { id: idOrExternal }, select: { id: true } });
  if (byId) return byId.id;
  const byExternal = await db.trajectory.findUnique({ where: { externalId: idOrExternal }, select: { id: true } });
  return byExternal?.id ?? null;
}

export async function getTrajectoryDetail(db: Db, idOrExternal: string): Promise<TrajectoryDetail | null> {
  const id = await resolveTrajectoryId(db, idOrExternal);
  if (!id) return null;
  const t = await db.trajectory.findUnique({
    where: { id },
    include: {
      task: true,
      run: true,
      recording: { select: { id: true } },
      errors: { orderBy: { stepIndex: "asc" }, select: { stepIndex: true, category: true, signal: true, excerpt: true } },
      forkPoints: {
        orderBy: { stepIndex: "asc" },
        include: {
          attempts: {
            orderBy: { attemptIndex: "asc" },
            select: { id: true, outcome: true, reward: true, stepCount: true, attemptIndex: true },
          },
        },
      },
    },
  });
  if (!t) return null;
  return {
    id: t.id,
    externalId: t.externalId,
    outcome: t.outcome,
    reward: t.reward,
    verifierOutput: t.verifierOutput,
    failureMode: t.failureMode,
    startedAt: t.startedAt?.toISOString() ?? null,
    durationMs: t.durationMs,
    stepCount: t.stepCount,
    sourceFormat: t.sourceFormat,
    sourceFile: t.sourceFile,
    task: {
      id: t.task.id,
      name: t.task.name,
      instruction: t.task.instruction,
      category: t.task.category,
      difficulty: t.task.difficulty,
      benchmark: t.task.benchmark,
    },
    run: {
      id: t.run.id,
      name: t.run.name,
      model: t.run.model,
      agent: t.run.agent,
      checkpoint: t.run.checkpoint,
      trainingMethod: t.run.trainingMethod,
    },
    parent: t.parentId ? { id: t.parentId, forkStepIndex: t.forkStepIndex, attemptIndex: t.attemptIndex } : null,
    forkPoints: t.forkPoints.map((f) => ({ id: f.id, stepIndex: f.stepIndex, errorCategory: f.errorCategory, attempts: f.attempts })),
    detectedErrors: t.errors,
    hasRecording: t.recording !== null,
    importWarnings: parseWarnings(t.importWarnings),
    warningCount: t.warningCount,
  };
}

/** Steps in [from, to) — the detail page reads them in ranges so huge trajectories stay cheap. */
export async function findSteps(db: Db, trajectoryId: string, from: number, to: number): Promise<StepView[]> {
  return db.step.findMany({
    where: { trajectoryId, index: { gte: from, lt: to } },
    orderBy: { index: "asc" },
    select: {
      index: true,
      source: true,
      offsetMs: true,
      message: true,
      reasoning: true,
      action: true,
      observation: true,
      exitCode: true,
      isError: true,
      isCopiedContext: true,
    },
  });
}

/** Light per-step fields for the replay's step list and timeline (no outputs). */
export interface StepHead {
  index: number;
  source: string;
  action: string | null;
  exitCode: number | null;
  isError: boolean;
  isCopiedContext: boolean;
  offsetMs: number | null;
}

export async function findStepHeads(db: Db, trajectoryId: string, from = 0, to = 2 ** 31 - 1): Promise<StepHead[]> {
  return db.step.findMany({
    where: { trajectoryId, index: { gte: from, lt: to } },
    orderBy: { index: "asc" },
    select: { index: true, source: true, action: true, exitCode: true, isError: true, isCopiedContext: true, offsetMs: true },
  });
}

/** What the session synthesizer needs for steps in [from, to). */
export async function findStepsForReplay(db: Db, trajectoryId: string, from: number, to: number) {
  return db.step.findMany({
    where: { trajectoryId, index: { gte: from, lt: to } },
    orderBy: { index: "asc" },
    select: { index: true, source: true, action: true, observation: true, message: true, offsetMs: true },
  });
}

/** Step outputs in [from, to), for scanning (e.g. test results). */
export async function findStepOutputs(
  db: Db,
  trajectoryId: string,
  from: number,
  to: number,
): Promise<{ index: number; observation: string | null }[]> {
  return db.step.findMany({
    where: { trajectoryId, index: { gte: from, lt: to } },
    orderBy: { index: "asc" },
    select: { index: true, observation: true },
  });
}

/** A trajectory in a fork family: a root or a recovery attempt, with the fork points that branch from it. */
export interface ForkTreeNode {
  id: string;
  outcome: string;
  reward: number | null;
  stepCount: number;
  attemptIndex: number | null;
  forkStepIndex: number | null;
  firstErrorCategory: string | null;
  /** "schemaKey=value" of labels people gave the trajectory or attempt. */
  labels: string[];
  forks: { id: string; stepIndex: number; errorCategory: string | null; attempts: ForkTreeNode[] }[];
}

const MAX_FAMILY_DEPTH = 4;
const MAX_FAMILY_NODES = 300;

type FamilyRow = Omit<ForkTreeNode, "forks"> & {
  forks: { id: string; stepIndex: number; errorCategory: string | null; attemptIds: string[] }[];
};

/**
 * The whole fork family of a trajectory: up to its root, then down through fork points and attempts (a few
 * levels deep, a few hundred nodes at most; `truncated` says when more exist). Null when the id is unknown.
 */
export async function findForkFamily(db: Db, idOrExternal: string): Promise<{ root: ForkTreeNode; truncated: boolean } | null> {
  const id = await resolveTrajectoryId(db, idOrExternal);
  if (!id) return null;
  let rootId = id;
  for (let hops = 0; hops < 16; hops++) {
    const row = await db.trajectory.findUnique({ where: { id: rootId }, select: { parentId: true } });
    if (!row) return null;
    if (!row.parentId) break;
    rootId = row.parentId;
  }
  const rows = new Map<string, FamilyRow>();
  let level = [rootId];
  let truncated = false;
  for (let depth = 0; level.length; depth++) {
    if (depth > MAX_FAMILY_DEPTH || rows.size + level.length > MAX_FAMILY_NODES) {
      truncated = true;
      break;
    }
    const found = await db.trajectory.findMany({
      where: { id: { in: level } },
      select: {
        id: true,
        outcome: true,
        reward: true,
        stepCount: true,
        attemptIndex: true,
        forkStepIndex: true,
        firstErrorCategory: true,
        forkPoints: {
          orderBy: { stepIndex: "asc" },
          select: { id: true, stepIndex: true, errorCategory: true, attempts: { orderBy: { attemptIndex: "asc" }, select: { id: true } } },
        },
      },
    });
    level = [];
    for (const { forkPoints, ...r } of found) {
      const forks = forkPoints.map((f) => ({
        id: f.id,
        stepIndex: f.stepIndex,
        errorCategory: f.errorCategory,
        attemptIds: f.attempts.map((a) => a.id),
      }));
      rows.set(r.id, { ...r, labels: [], forks });
      for (const f of forks) level.push(...f.attemptIds.filter((a) => !rows.has(a)));
    }
  }
  await attachLabels(db, rows);
  const build = (nodeId: string): ForkTreeNode => {
    const r = rows.get(nodeId)!;
    return { ...r, forks: r.forks.map(({ attemptIds, ...f }) => ({ ...f, attempts: attemptIds.filter((a) => rows.has(a)).map(build) })) };
  };
  return { root: build(rootId), truncated };
}

async function attachLabels(db: Db, nodes: Map<string, FamilyRow>): Promise<void> {
  const ids = [...nodes.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.annotation.findMany({
      where: { trajectoryId: { in: ids.slice(i, i + 500) }, targetType: { in: ["trajectory", "attempt"] } },
      select: { trajectoryId: true, value: true, schema: { select: { key: true } } },
    });
    for (const r of rows) {
      const n = nodes.get(r.trajectoryId);
      const label = `${r.schema.key}=${r.value}`;
      if (n && !n.labels.includes(label)) n.labels.push(label);
    }
  }
}

/** Recovery attempts by id with their fork link (for the sibling comparison). */
export async function findAttemptHeads(db: Db, ids: string[]) {
  return db.trajectory.findMany({
    where: { id: { in: ids } },
    select: { id: true, parentId: true, forkStepIndex: true, attemptIndex: true, outcome: true, reward: true, stepCount: true },
  });
}

/** Just enough to know a trajectory exists and how to replay it. */
export async function findTrajectoryHead(
  db: Db,
  idOrExternal: string,
): Promise<{ id: string; stepCount: number; forkStepIndex: number | null; hasRecording: boolean } | null> {
  const id = await resolveTrajectoryId(db, idOrExternal);
  if (!id) return null;
  const t = await db.trajectory.findUnique({
    where: { id },
    select: { id: true, stepCount: true, forkStepIndex: true, recording: { select: { id: true } } },
  });
  return t ? { id: t.id, stepCount: t.stepCount, forkStepIndex: t.forkStepIndex, hasRecording: t.recording !== null } : null;
}
