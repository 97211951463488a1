// Fork bookkeeping: data for fork inference, inferred-link undo per import, attempts waiting for their parent, and
// the parents' denormalized fork counts.
import type { Db } from "../client.ts";
import type { ForkCandidate } from "../../domain/fork-inference.ts";
import { REFRESH_FORK_POINTS_SQL } from "../bulk/fork-links.ts";
import { dialectOf } from "../dialect.ts";

const ID_CHUNK = 500;

/** Unlinked trajectories of the given tasks with the hashes of their first `maxSteps` steps. */
export async function loadForkCandidates(db: Db, taskIds: string[], maxSteps: number): Promise<ForkCandidate[]> {
  const trajs = await db.trajectory.findMany({
    // Sub-agent trajectories (ATIF summarization helpers) copy context too, but are not recovery attempts.
    where: { taskId: { in: taskIds }, parentId: null, OR: [{ metadata: null }, { NOT: { metadata: { contains: '"subagentOf"' } } }] },
    select: { id: true, taskId: true, startedAt: true, importedAt: true },
  });
  const out: ForkCandidate[] = [];
  for (let i = 0; i < trajs.length; i += ID_CHUNK) {
    const chunk = trajs.slice(i, i + ID_CHUNK);
    const steps = await db.step.findMany({
      where: { trajectoryId: { in: chunk.map((t) => t.id) }, index: { lt: maxSteps } },
      orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
      select: { trajectoryId: true, contentHash: true, isCopiedContext: true, isError: true },
    });
    const byId = new Map<string, ForkCandidate["steps"]>();
    for (const s of steps) {
      const list = byId.get(s.trajectoryId) ?? [];
      list.push({ hash: s.contentHash, copied: s.isCopiedContext, isError: s.isError });
      byId.set(s.trajectoryId, list);
    }
    for (const t of chunk)
      out.push({ id: t.id, taskId: t.taskId, order: (t.startedAt ?? t.importedAt).toISOString(), steps: byId.get(t.id) ?? [] });
  }
  return out;
}

/** Remove the inferred links of one import's attempts; drop inferred fork points left without attempts. */
export async function deleteInferredLinks(db: Db, importJobId: string): Promise<number> {
  const attempts = await db.trajectory.findMany({ where: { importJobId, forkInferred: true }, select: { id: true, parentId: true } });
  if (!attempts.length) return 0;
  await db.trajectory.updateMany({
    where: { id: { in: attempts.map((a) => a.id) } },
    data: { parentId: null, forkPointId: null, forkStepIndex: null, attemptIndex: null, forkInferred: false },
  });
  await db.forkPoint.deleteMany({ where: { origin: "inferred", attempts: { none: {} } } });
  const parents = new Set(attempts.map((a) => a.parentId).filter((p): p is string => p !== null));
  for (const p of parents) await refreshForkCounts(db, p);
  return attempts.length;
}

/** An explicit fork link named by a source: attempt → parent (by client id) at a step. */
export interface ForkLink {
  attemptId: string;
  parentExternalId: string;
  stepIndex: number;
  attemptIndex?: number;
  errorCategory?: string;
  inferred?: boolean;
}

/**
 * Link recovery attempts to their parent's fork point (creating it when needed) and refresh the parent's
 * denormalized fork counts. Returns links whose parent is not (yet) in the database.
 */

function parseFork(metadata: string | null): { stepIndex: number; attemptIndex?: number; errorCategory?: string } | null {
  if (!metadata) return null;
  try {
    const m: unknown = JSON.parse(metadata);
    if (typeof m !== "object" || m === null || !("fork" in m)) return null;
    const f = m.fork;
    if (typeof f !== "object" || f === null || !("stepIndex" in f) || typeof f.stepIndex !== "number") return null;
    return {
      stepIndex: f.stepIndex,
      attemptIndex: "attemptIndex" in f && typeof f.attemptIndex === "number" ? f.attemptIndex : undefined,
      errorCategory: "errorCategory" in f && typeof f.errorCategory === "string" ? f.errorCategory : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Recompute a parent's fork-point count, attempt count and recovery rate from its attempts. The rate counts attempts
 * with a known outcome only (as every rate does, lib/domain/analytics/metrics.ts); null when none is known.
 */
export async function refreshForkCounts(db: Db, parentId: string): Promise<void> {
  const [forkPointCount, attempts, known, passed] = await Promise.all([
    db.forkPoint.count({ where: { trajectoryId: parentId } }),
    db.trajectory.count({ where: { parentId } }),
    db.trajectory.count({ where: { parentId, outcome: { in: ["passed", "failed"] } } }),
    db.trajectory.count({ where: { parentId, outcome: "passed" } }),
  ]);
  await db.trajectory.update({
    where: { id: parentId },
    data: { forkPointCount, attemptCount: attempts, recoveryRate: known ? passed / known : null },
  });
  await db.$executeRawUnsafe(dialectOf(db) === "sqlite" ? REFRESH_FORK_POINTS_SQL : REFRESH_FORK_POINTS_SQL.replace("?", "$1"), parentId);
}

/**
 * Every attempt still waiting for a parent that is now in the database (any import's): the explicit-link phase
 * works from this, so a re-run after a kill links what the killed run never got to. Ordered by id (= write order).
 */
export async function findResolvablePendingAttempts(db: Db): Promise<ForkLink[]> {
  const rows = await db.$queryRaw<{ id: string; pendingParentRef: string; metadata: string | null }[]>`
    SELECT a."id", a."pendingParentRef", a."metadata" FROM "Trajectory" a
    WHERE a."pendingParentRef" IS NOT NULL AND a."parentId" IS NULL
      AND EXISTS (SELECT 1 FROM "Trajectory" p WHERE p."externalId" = a."pendingParentRef")
    ORDER BY a."id"`;
  const out: ForkLink[] = [];
  for (const r of rows) {
    const fork = parseFork(r.metadata);
    if (fork)
      out.push({
        attemptId: r.id,
        parentExternalId: r.pendingParentRef,
        stepIndex: fork.stepIndex,
        attemptIndex: fork.attemptIndex,
        errorCategory: fork.errorCategory,
      });
  }
  return out;
}

/** Attempts of these imports whose parent is still missing. */
export async function findUnresolvedAttempts(
  db: Db,
  importJobIds: readonly string[],
  limit: number,
): Promise<{ attempt: string; parent: string }[]> {
  const rows = await db.trajectory.findMany({
    where: { importJobId: { in: [...importJobIds] }, parentId: null, pendingParentRef: { not: null } },
    select: { id: true, pendingParentRef: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((r) => ({ attempt: r.id, parent: r.pendingParentRef! }));
}

/** Trajectories of several imports (an import and the interrupted ones it completes) that have no parent yet. */
export async function findUnlinkedOfImports(db: Db, importJobIds: readonly string[]): Promise<{ ids: string[]; taskIds: string[] }> {
  const rows = await db.trajectory.findMany({
    where: { importJobId: { in: [...importJobIds] }, parentId: null },
    select: { id: true, taskId: true },
  });
  return { ids: rows.map((r) => r.id), taskIds: [...new Set(rows.map((r) => r.taskId))] };
}
