// Reading labels with blind mode held on the server: annotators see their own labels only, unless the trajectory is
// in a queue assigned to them that is not blind. Reviewers, researchers and viewers see everyone's.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import {
  findTargetFacts,
  listLabelEvents,
  listLabels as listLabelRows,
  type LabelEventView,
  type LabelView,
} from "../../db/repositories/annotation/labels.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { findUserByName } from "../../db/repositories/accounts/users.ts";
import { isInOpenQueueOf } from "../../db/repositories/annotation/queues.ts";

export const labelQuerySchema = z.object({
  trajectory: z.string().min(1).max(200).optional(),
  schema: z.string().min(1).max(100).optional(),
  annotator: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type LabelQuery = z.infer<typeof labelQuerySchema>;

/** Annotator ids whose labels on this trajectory the actor may see (undefined = everyone's). */
export async function visibleAnnotators(ctx: ServiceContext, trajectoryId?: string): Promise<string[] | undefined> {
  if (ctx.actor.role !== "annotator") return undefined;
  if (trajectoryId && (await isInOpenQueueOf(ctx.db, trajectoryId, ctx.actor.id))) return undefined;
  return [ctx.actor.id];
}

export async function listLabels(ctx: ServiceContext, raw: unknown): Promise<{ labels: LabelView[] }> {
  authorize(ctx, "trajectory:read");
  const q = labelQuerySchema.parse(raw);
  let trajectoryId: string | undefined;
  if (q.trajectory) {
    const facts = await findTargetFacts(ctx.db, q.trajectory);
    if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${q.trajectory}"`);
    trajectoryId = facts.id;
  }
  let schemaId: string | undefined;
  if (q.schema) {
    const s = await findLabelSchema(ctx.db, q.schema);
    if (!s) throw new AppError("NOT_FOUND", `unknown schema "${q.schema}"`);
    schemaId = s.id;
  }
  let annotatorId: string | undefined;
  if (q.annotator) {
    const u = await findUserByName(ctx.db, q.annotator);
    if (!u) return { labels: [] };
    annotatorId = u.id;
  }
  const annotatorIds = await visibleAnnotators(ctx, trajectoryId);
  return { labels: await listLabelRows(ctx.db, { trajectoryId, schemaId, annotatorId, annotatorIds, limit: q.limit, offset: q.offset }) };
}

/** Every change on one trajectory's labels (who, when, old → new), under the same visibility as the labels. */
export async function getLabelHistory(ctx: ServiceContext, trajectory: string): Promise<LabelEventView[]> {
  authorize(ctx, "trajectory:read");
  const facts = await findTargetFacts(ctx.db, trajectory);
  if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${trajectory}"`);
  const ids = await visibleAnnotators(ctx, facts.id);
  // Blind annotators see the history of their own labels only (changes they or a reviewer made to them).
  const events = await listLabelEvents(ctx.db, { trajectoryId: facts.id });
  if (!ids) return events;
  const own = new Set((await listLabelRows(ctx.db, { trajectoryId: facts.id, annotatorIds: ids, limit: 1000 })).map((l) => l.id));
  const mineDeleted = await listLabelEvents(ctx.db, { trajectoryId: facts.id, actorIds: ids });
  const visible = new Set([...own, ...mineDeleted.map((e) => e.annotationId)]);
  return events.filter((e) => visible.has(e.annotationId));
}
export type { LabelEventView, LabelView };
