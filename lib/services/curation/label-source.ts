// The trajectories a label rule selects: each condition's labels are read (annotators' or gold, limited to a queue's
// items when one is named) and matched in lib/domain; a trajectory must satisfy every condition. Order: the queue's
// order when a queue is named, else by trajectory id (stable, so a rebuild gives the same items).
import type { ServiceContext } from "../context.ts";
import { findLabelRows, findQueueItems, findSchemaIds } from "../../db/repositories/datasets/candidates.ts";
import { matchCondition, type LabelCondition } from "../../domain/curation/label-rules.ts";
import { AppError } from "../../errors.ts";

export async function matchLabelRule(
  ctx: ServiceContext,
  rule: { labels: LabelCondition | LabelCondition[]; queue?: string },
): Promise<string[]> {
  const conditions = Array.isArray(rule.labels) ? rule.labels : [rule.labels];
  const queue = rule.queue ? await findQueueItems(ctx.db, rule.queue) : null;
  if (rule.queue && !queue) throw new AppError("INVALID_INPUT", `queue: no annotation queue named "${rule.queue}"`);
  const schemas = await findSchemaIds(
    ctx.db,
    conditions.map((c) => c.schema),
  );
  let kept = new Set<string>();
  for (const [i, c] of conditions.entries()) {
    const schemaId = schemas.get(c.schema);
    if (!schemaId) throw new AppError("INVALID_INPUT", `labels[${i}].schema: no label schema "${c.schema}"`);
    const rows = await findLabelRows(ctx.db, {
      schemaId,
      gold: c.by === "gold",
      targetType: c.targetType,
      annotator: c.annotator,
      queueId: queue?.id,
    });
    const matched = matchCondition(c, rows, queue?.labelsPerItem ?? 1);
    kept = i === 0 ? matched : new Set([...kept].filter((id) => matched.has(id)));
  }
  if (queue) return queue.trajectoryIds.filter((id) => kept.has(id));
  return [...kept].sort();
}
