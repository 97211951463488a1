// Agreement per schema (optionally within one queue) over targets that at least two annotators labelled, plus the
// disagreement list (targets whose labels differ) for the queue page and adjudication.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { findQueue, loadQueueRatings } from "../../db/repositories/annotation/queues.ts";
import { agreementReport, type AgreementReport, type RatedItem } from "../../domain/annotation/agreement.ts";
import { optionOrder, valueLabel } from "../../domain/annotation/label-schema.ts";
import type { DescribableTarget } from "../../domain/annotation/describe-target.ts";

export const agreementQuerySchema = z.object({ schema: z.string().min(1).max(100), queue: z.string().min(1).max(200).optional() });

export interface Disagreement {
  targetKey: string;
  trajectoryId: string;
  /** What was labelled, for describeTarget: the kind and steps as stored. */
  target: DescribableTarget;
  taskName: string;
  labels: { annotator: string; value: string }[];
}

export interface SchemaAgreement extends AgreementReport {
  schema: string;
  /** The schema's name and each value's label (matrix headings and disagreements show these, not stored values). */
  schemaName: string;
  valueLabels: Record<string, string>;
  disagreements: Disagreement[];
}

export async function computeAgreement(ctx: ServiceContext, raw: unknown): Promise<SchemaAgreement> {
  // Agreement shows everyone's labels side by side: a reviewer's view, never a blind annotator's.
  authorize(ctx, "annotation:adjudicate");
  const q = agreementQuerySchema.parse(raw);
  const schema = await findLabelSchema(ctx.db, q.schema);
  if (!schema) throw new AppError("NOT_FOUND", `unknown schema "${q.schema}"`);
  if (schema.kind === "text" || schema.kind === "ranking")
    throw new AppError(
      "INVALID_INPUT",
      `agreement is computed for categorical, ordinal and boolean schemas; ${schema.key} is ${schema.kind}`,
    );
  let queueId: string | undefined;
  if (q.queue) {
    const queue = await findQueue(ctx.db, q.queue);
    if (!queue) throw new AppError("NOT_FOUND", `no queue "${q.queue}"`);
    queueId = queue.id;
  }
  const rows = await loadQueueRatings(ctx.db, schema.id, queueId);
  const byTarget = new Map<string, { trajectoryId: string; taskName: string; target: DescribableTarget; ratings: Map<string, string> }>();
  for (const r of rows) {
    const t = byTarget.get(r.targetKey) ?? {
      trajectoryId: r.trajectoryId,
      taskName: r.taskName,
      target: { targetType: r.targetType, stepStart: r.stepStart, stepEnd: r.stepEnd },
      ratings: new Map(),
    };
    t.ratings.set(r.annotatorName, r.value);
    byTarget.set(r.targetKey, t);
  }
  const items: RatedItem[] = [...byTarget].map(([item, t]) => ({ item, ratings: t.ratings }));
  const order = schema.kind === "boolean" ? ["true", "false"] : optionOrder(schema);
  const report = agreementReport(items, schema.kind === "ordinal" ? "ordinal" : "nominal", order);
  const disagreements = [...byTarget]
    .filter(([, t]) => t.ratings.size >= 2 && new Set(t.ratings.values()).size > 1)
    .map(([targetKey, t]) => ({
      targetKey,
      trajectoryId: t.trajectoryId,
      target: t.target,
      taskName: t.taskName,
      labels: [...t.ratings].map(([annotator, value]) => ({ annotator, value })).sort((a, b) => a.annotator.localeCompare(b.annotator)),
    }))
    .sort((a, b) => a.targetKey.localeCompare(b.targetKey));
  const valueLabels = Object.fromEntries([...new Set([...order, ...rows.map((r) => r.value)])].map((v) => [v, valueLabel(schema, v)]));
  return { schema: schema.key, schemaName: schema.name, valueLabels, ...report, disagreements };
}

/** Agreement for each schema of a queue that agreement applies to (categorical, ordinal, boolean). */
export async function computeQueueAgreement(
  ctx: ServiceContext,
  queue: { name: string; schemaKeys: string[] },
): Promise<SchemaAgreement[]> {
  authorize(ctx, "annotation:adjudicate");
  const out: SchemaAgreement[] = [];
  for (const key of queue.schemaKeys) {
    const s = await findLabelSchema(ctx.db, key);
    if (s && s.kind !== "text" && s.kind !== "ranking") out.push(await computeAgreement(ctx, { schema: key, queue: queue.name }));
  }
  return out;
}
