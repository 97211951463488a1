// Labels a queue put on step 0 (the task prompt): before queue items had a target, Enter saved every queue label on
// the panel's cursor at step 0. They stay as they are; the queue page lists them for review.
import type { Db } from "../../client.ts";

export interface StepZeroLabel {
  labelId: string;
  trajectoryId: string;
  taskName: string;
  annotatorId: string;
  annotatorName: string;
  schemaKey: string;
  value: string;
  /** Where the queue item's label belongs now: its first fork point, if it has one. */
  forkStep: number | null;
  createdAt: string;
}

/** Step-0 labels of the queue's schemas by annotators who finished that item in this queue (newest first). */
export async function listStepZeroQueueLabels(
  db: Db,
  queueId: string,
  schemaKeys: string[],
  opts: { annotatorId?: string; limit?: number } = {},
): Promise<StepZeroLabel[]> {
  const rows = await db.annotation.findMany({
    where: {
      targetType: "step_range",
      stepStart: 0,
      stepEnd: 0,
      schema: { key: { in: schemaKeys } },
      ...(opts.annotatorId ? { annotatorId: opts.annotatorId } : {}),
      trajectory: { queueItems: { some: { queueId, slots: { some: { status: "done" } } } } },
    },
    orderBy: { createdAt: "desc" },
    take: 2000,
    select: {
      id: true,
      trajectoryId: true,
      annotatorId: true,
      value: true,
      createdAt: true,
      schema: { select: { key: true } },
      annotator: { select: { name: true } },
      trajectory: {
        select: { task: { select: { name: true } }, forkPoints: { orderBy: { stepIndex: "asc" }, take: 1, select: { stepIndex: true } } },
      },
    },
  });
  if (!rows.length) return [];
  // Only where the same annotator finished the item in this queue (a label made on the trajectory page is theirs to keep).
  const done = await db.queueSlot.findMany({
    where: { queueId, status: "done", item: { trajectoryId: { in: [...new Set(rows.map((r) => r.trajectoryId))] } } },
    select: { annotatorId: true, item: { select: { trajectoryId: true } } },
  });
  const finished = new Set(done.map((d) => `${d.item.trajectoryId}:${d.annotatorId}`));
  return rows
    .filter((r) => finished.has(`${r.trajectoryId}:${r.annotatorId}`))
    .slice(0, opts.limit ?? 200)
    .map((r) => ({
      labelId: r.id,
      trajectoryId: r.trajectoryId,
      taskName: r.trajectory.task.name,
      annotatorId: r.annotatorId,
      annotatorName: r.annotator.name,
      schemaKey: r.schema.key,
      value: r.value,
      forkStep: r.trajectory.forkPoints[0]?.stepIndex ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
}
