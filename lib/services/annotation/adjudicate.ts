// Adjudication: a reviewer sees every label of a trajectory side by side, per schema and target, and records the
// final (gold) label. Gold labels are versioned; a save over another reviewer's newer decision is refused (409).
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { findTargetFacts, listLabels, type LabelView } from "../../db/repositories/annotation/labels.ts";
import { findUserName, listGold, saveGold, type GoldView } from "../../db/repositories/annotation/gold.ts";
import { labelInputSchema } from "./label-input.ts";
import { resolveOrThrow } from "./resolve-label.ts";

export interface AdjudicationTarget {
  schemaId: string;
  schemaKey: string;
  targetKey: string;
  targetType: string;
  stepStart: number | null;
  stepEnd: number | null;
  labels: LabelView[];
  gold: GoldView | null;
  agreed: boolean;
}

export async function getAdjudication(
  ctx: ServiceContext,
  trajectory: string,
): Promise<{ trajectoryId: string; targets: AdjudicationTarget[] }> {
  authorize(ctx, "annotation:adjudicate");
  const facts = await findTargetFacts(ctx.db, trajectory);
  if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${trajectory}"`);
  const [labels, gold] = await Promise.all([listLabels(ctx.db, { trajectoryId: facts.id, limit: 5000 }), listGold(ctx.db, facts.id)]);
  const byTarget = new Map<string, AdjudicationTarget>();
  for (const l of labels) {
    const k = `${l.schemaId}|${l.targetKey}`;
    const t = byTarget.get(k) ?? {
      schemaId: l.schemaId,
      schemaKey: l.schemaKey,
      targetKey: l.targetKey,
      targetType: l.targetType,
      stepStart: l.stepStart,
      stepEnd: l.stepEnd,
      labels: [],
      gold: null,
      agreed: true,
    };
    t.labels.push(l);
    byTarget.set(k, t);
  }
  for (const g of gold) {
    const t = byTarget.get(`${g.schemaId}|${g.targetKey}`);
    if (t) t.gold = g;
  }
  const targets = [...byTarget.values()].map((t) => ({ ...t, agreed: new Set(t.labels.map((l) => l.value)).size <= 1 }));
  // Disagreements first: that is what a reviewer is here for.
  targets.sort(
    (a, b) => Number(a.agreed) - Number(b.agreed) || (a.stepStart ?? -1) - (b.stepStart ?? -1) || a.targetKey.localeCompare(b.targetKey),
  );
  return { trajectoryId: facts.id, targets };
}

export const goldInputSchema = labelInputSchema.extend({ version: z.number().int().min(0) });

export async function recordGoldLabel(ctx: ServiceContext, raw: unknown): Promise<GoldView> {
  authorize(ctx, "annotation:adjudicate");
  const { version, ...input } = goldInputSchema.parse(raw);
  const { label } = await resolveOrThrow(ctx.db, input);
  const saved = await saveGold(
    ctx.db,
    {
      schemaId: label.schemaId,
      targetKey: label.targetKey,
      targetType: label.targetType,
      trajectoryId: label.trajectoryId,
      stepStart: label.stepStart,
      stepEnd: label.stepEnd,
      value: label.value,
      comment: label.comment,
      adjudicatorId: ctx.actor.id,
    },
    version,
  );
  if (saved) {
    await recordAudit(ctx, {
      action: "label.adjudicate",
      targetType: "gold-label",
      targetId: saved.id,
      details: { targetKey: label.targetKey, value: label.value },
    });
    return saved;
  }
  const current = (await listGold(ctx.db, label.trajectoryId)).find(
    (g) => g.schemaId === label.schemaId && g.targetKey === label.targetKey,
  );
  const who = current ? await findUserName(ctx.db, current.adjudicatorId) : null;
  throw new AppError(
    "CONFLICT",
    `the final label was recorded by ${who ?? "another reviewer"} meanwhile (version ${current?.version ?? "?"}); reload before saving`,
    { current },
  );
}
