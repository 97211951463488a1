// Human labels (Annotation rows) with their history (AnnotationEvent) and Trajectory.annotationCount, each write in
// one transaction so the count, the label and its history never disagree.
import type { Db, Prisma } from "../../client.ts";
import { decisionRow, type NewDecision } from "./suggestions.ts";
import type { LabelTargetRow } from "./target-row.ts";

export type { LabelTargetRow };

export interface LabelView {
  id: string;
  schemaId: string;
  schemaKey: string;
  annotatorId: string;
  annotatorName: string;
  targetType: string;
  targetKey: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  forkPointId: string | null;
  value: string;
  comment: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface LabelEventView {
  id: string;
  annotationId: string;
  targetKey: string;
  schemaId: string;
  actorName: string;
  action: string;
  oldValue: string | null;
  newValue: string | null;
  oldComment: string | null;
  newComment: string | null;
  version: number;
  createdAt: string;
}

const labelSelect = {
  id: true,
  schemaId: true,
  annotatorId: true,
  targetType: true,
  targetKey: true,
  trajectoryId: true,
  stepStart: true,
  stepEnd: true,
  forkPointId: true,
  value: true,
  comment: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  schema: { select: { key: true } },
  annotator: { select: { name: true } },
} as const;

type LabelRow = Prisma.AnnotationGetPayload<{ select: typeof labelSelect }>;

function toView(r: LabelRow): LabelView {
  const { schema, annotator, createdAt, updatedAt, ...rest } = r;
  return {
    ...rest,
    schemaKey: schema.key,
    annotatorName: annotator.name,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export interface TrajectoryTargetFacts {
  id: string;
  stepCount: number;
  isAttempt: boolean;
}

export async function findTargetFacts(db: Db, idOrExternal: string): Promise<TrajectoryTargetFacts | null> {
  const t =
    (await db.trajectory.findUnique({ where: { id: idOrExternal }, select: { id: true, stepCount: true, parentId: true } })) ??
    (await db.trajectory.findUnique({ where: { externalId: idOrExternal }, select: { id: true, stepCount: true, parentId: true } }));
  return t ? { id: t.id, stepCount: t.stepCount, isAttempt: t.parentId !== null } : null;
}

export async function findForkPointId(db: Db, trajectoryId: string, stepIndex: number): Promise<string | null> {
  const f = await db.forkPoint.findUnique({ where: { trajectoryId_stepIndex: { trajectoryId, stepIndex } }, select: { id: true } });
  return f?.id ?? null;
}

/** The recovery attempts of a fork point (a ranking label orders exactly these). */
export async function listForkAttemptIds(db: Db, forkPointId: string): Promise<string[]> {
  const rows = await db.trajectory.findMany({
    where: { forkPointId },
    orderBy: [{ attemptIndex: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

export async function findLabel(db: Db, id: string): Promise<LabelView | null> {
  const r = await db.annotation.findUnique({ where: { id }, select: labelSelect });
  return r ? toView(r) : null;
}

export async function findLabelByTarget(db: Db, schemaId: string, annotatorId: string, targetKey: string): Promise<LabelView | null> {
  const r = await db.annotation.findUnique({
    where: { schemaId_annotatorId_targetKey: { schemaId, annotatorId, targetKey } },
    select: labelSelect,
  });
  return r ? toView(r) : null;
}

export interface LabelFilter {
  trajectoryId?: string;
  trajectoryIds?: string[];
  schemaId?: string;
  annotatorId?: string;
  /** Restrict to these annotators (blind mode: the actor alone). */
  annotatorIds?: string[];
  limit: number;
  offset?: number;
}

export async function listLabels(db: Db, f: LabelFilter): Promise<LabelView[]> {
  const rows = await db.annotation.findMany({
    where: {
      ...(f.trajectoryId ? { trajectoryId: f.trajectoryId } : {}),
      ...(f.trajectoryIds ? { trajectoryId: { in: f.trajectoryIds } } : {}),
      ...(f.schemaId ? { schemaId: f.schemaId } : {}),
      // Both may be given (blind mode restricts whatever was asked for): AND them, never let one replace the other.
      AND: [
        ...(f.annotatorId ? [{ annotatorId: f.annotatorId }] : []),
        ...(f.annotatorIds ? [{ annotatorId: { in: f.annotatorIds } }] : []),
      ],
    },
    orderBy: [{ trajectoryId: "asc" }, { stepStart: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    take: f.limit,
    skip: f.offset ?? 0,
    select: labelSelect,
  });
  return rows.map(toView);
}

/** Where a label (or a suggestion of one) points: the columns Annotation and Suggestion rows share. */
export interface NewLabel extends LabelTargetRow {
  schemaId: string;
  annotatorId: string;
  value: string;
  comment: string | null;
}

/**
 * Insert a label, its "create" event and bump the trajectory's count. Throws Prisma P2002 when the target is labelled.
 * With `decision` (a suggestion accepted or changed), the decision is recorded in the same transaction, so a label
 * made from a suggestion and the decision that made it exist together or not at all (P2002 also when decided).
 */
export async function insertLabel(db: Db, l: NewLabel, actorId: string, opts: { decision?: NewDecision } = {}): Promise<LabelView> {
  return db.$transaction(async (tx) => {
    const r = await tx.annotation.create({ data: l, select: labelSelect });
    await tx.annotationEvent.create({
      data: {
        annotationId: r.id,
        trajectoryId: l.trajectoryId,
        schemaId: l.schemaId,
        targetKey: l.targetKey,
        actorId,
        action: "create",
        newValue: l.value,
        newComment: l.comment,
        version: 1,
      },
    });
    await tx.trajectory.update({ where: { id: l.trajectoryId }, data: { annotationCount: { increment: 1 } } });
    if (opts.decision) await tx.suggestionDecision.create({ data: decisionRow(opts.decision, r.id) });
    return toView(r);
  });
}

/**
 * Change a label when it is still at `expectedVersion`. Returns null when it is not (someone saved in between) or
 * it is gone; the caller reads who changed it from the history.
 */
export async function updateLabelIfVersion(
  db: Db,
  id: string,
  expectedVersion: number,
  change: { value: string; comment: string | null },
  actorId: string,
): Promise<LabelView | null> {
  return db.$transaction(async (tx) => {
    const before = await tx.annotation.findUnique({
      where: { id },
      select: { value: true, comment: true, trajectoryId: true, schemaId: true, targetKey: true },
    });
    if (!before) return null;
    const n = await tx.annotation.updateMany({
      where: { id, version: expectedVersion },
      data: { value: change.value, comment: change.comment, version: { increment: 1 } },
    });
    if (n.count === 0) return null;
    await tx.annotationEvent.create({
      data: {
        annotationId: id,
        trajectoryId: before.trajectoryId,
        schemaId: before.schemaId,
        targetKey: before.targetKey,
        actorId,
        action: "update",
        oldValue: before.value,
        newValue: change.value,
        oldComment: before.comment,
        newComment: change.comment,
        version: expectedVersion + 1,
      },
    });
    const r = await tx.annotation.findUniqueOrThrow({ where: { id }, select: labelSelect });
    return toView(r);
  });
}

/** Delete a label at `expectedVersion`, record it, and decrement the count. False when the version moved or it is gone. */
export async function deleteLabelIfVersion(db: Db, id: string, expectedVersion: number, actorId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const before = await tx.annotation.findUnique({
      where: { id },
      select: { value: true, comment: true, trajectoryId: true, schemaId: true, targetKey: true },
    });
    if (!before) return false;
    const n = await tx.annotation.deleteMany({ where: { id, version: expectedVersion } });
    if (n.count === 0) return false;
    await tx.annotationEvent.create({
      data: {
        annotationId: id,
        trajectoryId: before.trajectoryId,
        schemaId: before.schemaId,
        targetKey: before.targetKey,
        actorId,
        action: "delete",
        oldValue: before.value,
        oldComment: before.comment,
        version: expectedVersion,
      },
    });
    await tx.trajectory.update({ where: { id: before.trajectoryId }, data: { annotationCount: { decrement: 1 } } });
    return true;
  });
}

export async function listLabelEvents(
  db: Db,
  where: { annotationId?: string; trajectoryId?: string; actorIds?: string[] },
  limit = 200,
): Promise<LabelEventView[]> {
  const rows = await db.annotationEvent.findMany({
    where: {
      ...(where.annotationId ? { annotationId: where.annotationId } : {}),
      ...(where.trajectoryId ? { trajectoryId: where.trajectoryId } : {}),
      ...(where.actorIds ? { actorId: { in: where.actorIds } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { version: "desc" }],
    take: limit,
  });
  const names = new Map(
    (await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.actorId))] } }, select: { id: true, name: true } })).map(
      (u) => [u.id, u.name],
    ),
  );
  return rows.map((r) => ({
    id: r.id,
    annotationId: r.annotationId,
    targetKey: r.targetKey,
    schemaId: r.schemaId,
    actorName: names.get(r.actorId) ?? r.actorId,
    action: r.action,
    oldValue: r.oldValue,
    newValue: r.newValue,
    oldComment: r.oldComment,
    newComment: r.newComment,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The annotationCount every trajectory should have (test and repair helper). */
export async function countLabelsOfTrajectory(db: Db, trajectoryId: string): Promise<{ stored: number; actual: number }> {
  const [t, actual] = await Promise.all([
    db.trajectory.findUnique({ where: { id: trajectoryId }, select: { annotationCount: true } }),
    db.annotation.count({ where: { trajectoryId } }),
  ]);
  return { stored: t?.annotationCount ?? 0, actual };
}

/** Ratings for agreement: value per annotator per target, for one schema, optionally only targets of some trajectories. */
export async function loadRatings(
  db: Db,
  schemaId: string,
  trajectoryIds?: string[],
): Promise<{ targetKey: string; annotatorId: string; value: string }[]> {
  const out: { targetKey: string; annotatorId: string; value: string }[] = [];
  const chunks = trajectoryIds
    ? Array.from({ length: Math.ceil(trajectoryIds.length / 500) }, (_, i) => trajectoryIds.slice(i * 500, i * 500 + 500))
    : [undefined];
  for (const ids of chunks) {
    const rows = await db.annotation.findMany({
      where: { schemaId, ...(ids ? { trajectoryId: { in: ids } } : {}) },
      select: { targetKey: true, annotatorId: true, value: true },
    });
    out.push(...rows);
  }
  return out;
}
