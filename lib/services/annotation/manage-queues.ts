// Queues: researchers create them from a trajectories-table filter (every matching row, no duplicates) and see them
// all; annotators see only queues assigned to them.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { can } from "../../domain/authz.ts";
import { selectMatchingTrajectories } from "../browse/browse-trajectories.ts";
import { paramsFromSearch, trajectoryListQuerySchema } from "../../validation/search-params/index.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { findUserByName } from "../../db/repositories/accounts/users.ts";
import {
  findQueue,
  insertQueue,
  isAssignee,
  listQueues as listQueueRows,
  listSkips,
  queueProgress,
  type QueueProgress,
  type QueueView,
} from "../../db/repositories/annotation/queues.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { listStepZeroQueueLabels, type StepZeroLabel } from "../../db/repositories/annotation/queue-review.ts";

export type { StepZeroLabel };

export const createQueueSchema = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2000).nullish(),
  /** The trajectories table's query string (e.g. "outcome=failed&task=abc"); paging and sorting are ignored. */
  filter: z.string().max(8000).default(""),
  schemas: z.array(z.string().min(1).max(100)).min(1).max(10),
  labelsPerItem: z.number().int().min(1).max(10).default(1),
  assignees: z.array(z.string().trim().min(1).max(64)).max(200).default([]),
  blind: z.boolean().default(true),
  reservationMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
});
export type CreateQueueInput = z.input<typeof createQueueSchema>;

export async function createQueue(ctx: ServiceContext, raw: unknown): Promise<QueueView> {
  authorize(ctx, "queue:manage");
  const input = createQueueSchema.parse(raw);
  const params = new URLSearchParams(input.filter.replace(/^\?/, ""));
  for (const k of ["page", "perPage", "cursor", "sort", "dir", "cols"]) params.delete(k);
  const parsed = trajectoryListQuerySchema.safeParse(paramsFromSearch(params));
  if (!parsed.success)
    throw new AppError(
      "INVALID_INPUT",
      `filter: ${parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ")}`,
    );
  for (const key of input.schemas)
    if (!(await findLabelSchema(ctx.db, key))) throw new AppError("INVALID_INPUT", `schemas: unknown schema "${key}"`);
  const assigneeIds: string[] = [];
  for (const name of new Set(input.assignees)) {
    const u = await findUserByName(ctx.db, name);
    if (!u) throw new AppError("INVALID_INPUT", `assignees: no user "${name}"`);
    if (!can(u, "annotation:write")) throw new AppError("INVALID_INPUT", `assignees: ${name} (${u.role}) may not label`);
    assigneeIds.push(u.id);
  }
  const matching = await selectMatchingTrajectories(ctx, parsed.data);
  if (matching.truncated)
    throw new AppError(
      "INVALID_INPUT",
      `filter matches ${matching.total} trajectories, more than a queue holds (${matching.ids.length}); narrow it`,
    );
  if (matching.ids.length === 0) throw new AppError("INVALID_INPUT", "filter matches no trajectories");
  let queue: QueueView;
  try {
    queue = await insertQueue(ctx.db, {
      name: input.name,
      description: input.description ?? null,
      filter: params.toString(),
      schemaKeys: [...new Set(input.schemas)],
      labelsPerItem: input.labelsPerItem,
      blind: input.blind,
      reservationMinutes: input.reservationMinutes,
      createdById: ctx.actor.id,
      assigneeIds,
      trajectoryIds: [...new Set(matching.ids)],
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `a queue named "${input.name}" exists already`);
    throw e;
  }
  await recordAudit(ctx, {
    action: "queue.create",
    targetType: "queue",
    targetId: queue.id,
    details: { name: input.name, items: matching.ids.length, assignees: input.assignees },
  });
  return queue;
}

export async function listQueues(ctx: ServiceContext): Promise<QueueView[]> {
  authorize(ctx, "annotation:write");
  return can(ctx.actor, "queue:manage") ? listQueueRows(ctx.db) : listQueueRows(ctx.db, { assigneeId: ctx.actor.id });
}

/** A queue the actor may open: managers any, annotators only those assigned to them (others are "not found"). */
export async function openQueue(ctx: ServiceContext, idOrName: string): Promise<QueueView> {
  authorize(ctx, "annotation:write");
  const q = await findQueue(ctx.db, idOrName);
  if (!q || (!can(ctx.actor, "queue:manage") && !(await isAssignee(ctx.db, q.id, ctx.actor.id))))
    throw new AppError("NOT_FOUND", `no queue "${idOrName}"`);
  return q;
}

export interface QueueOverview {
  queue: QueueView;
  progress: QueueProgress;
  skips: Awaited<ReturnType<typeof listSkips>>;
  /** Labels this queue stored on step 0 (the task prompt) for review: all for managers, an annotator's own else. */
  stepZero: StepZeroLabel[];
}

export async function getQueueOverview(ctx: ServiceContext, idOrName: string): Promise<QueueOverview> {
  const queue = await openQueue(ctx, idOrName);
  const progress = await queueProgress(ctx.db, queue.id, new Date());
  if (!can(ctx.actor, "queue:manage")) {
    // Annotators see their own progress and the queue's totals, not who else labelled what.
    progress.perAnnotator = progress.perAnnotator.filter((p) => p.annotatorId === ctx.actor.id);
    return {
      queue,
      progress,
      skips: [],
      stepZero: await listStepZeroQueueLabels(ctx.db, queue.id, queue.schemaKeys, { annotatorId: ctx.actor.id }),
    };
  }
  return {
    queue,
    progress,
    skips: await listSkips(ctx.db, queue.id),
    stepZero: await listStepZeroQueueLabels(ctx.db, queue.id, queue.schemaKeys),
  };
}

export interface QueueSummary {
  queue: QueueView;
  progress: QueueProgress;
}

/** Queues the actor may work on, each with its progress (the annotation page). */
export async function listQueueSummaries(ctx: ServiceContext): Promise<QueueSummary[]> {
  const queues = await listQueues(ctx);
  const now = new Date();
  const manager = can(ctx.actor, "queue:manage");
  return Promise.all(
    queues.map(async (queue) => {
      const progress = await queueProgress(ctx.db, queue.id, now);
      // Blind: an annotator's overview carries no one else's counts.
      if (!manager) progress.perAnnotator = progress.perAnnotator.filter((p) => p.annotatorId === ctx.actor.id);
      return { queue, progress };
    }),
  );
}
