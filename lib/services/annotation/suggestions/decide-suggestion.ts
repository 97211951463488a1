// Accept, change or reject a suggestion as the acting user. Accepting creates the suggested label, changing creates
// the annotator's, both through the ordinary create-label use case (history, 409, annotationCount) with the decision
// in the label's transaction; rejecting records only the decision. One decision per annotator per suggestion (409).
import { authorize, type ServiceContext } from "../../context.ts";
import { recordAudit } from "../../audit/record-audit.ts";
import { AppError } from "../../../errors.ts";
import { checkLabelValue } from "../../../domain/annotation/label-schema.ts";
import { decisionInputSchema, effectiveDecision, targetInputOf, type Decision } from "../../../domain/annotation/suggestions.ts";
import { findLabelSchema } from "../../../db/repositories/annotation/schemas.ts";
import {
  deleteDecision,
  findDecision,
  findSuggestion,
  insertDecision,
  type DecisionView,
} from "../../../db/repositories/annotation/suggestions.ts";
import { findLabel } from "../../../db/repositories/annotation/labels.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { createLabel, deleteLabel } from "../save-label.ts";
import type { LabelView } from "../../../db/repositories/annotation/labels.ts";
import { detectorSchema } from "./error-schema.ts";

export interface DecisionResult {
  suggestion: string;
  decision: Decision;
  label: LabelView | null;
}

export async function decideSuggestion(ctx: ServiceContext, raw: unknown): Promise<DecisionResult> {
  authorize(ctx, "annotation:write");
  const input = decisionInputSchema.parse(raw);
  const errorSchema = await detectorSchema(ctx.db);
  const s = await findSuggestion(ctx.db, input.suggestion, errorSchema?.id ?? null);
  if (!s) throw new AppError("NOT_FOUND", `no suggestion ${input.suggestion}`);
  const earlier = await findDecision(ctx.db, s.key, ctx.actor.id);
  if (earlier) throw decided(earlier);
  const schema = s.schemaId === errorSchema?.id ? errorSchema : await findLabelSchema(ctx.db, s.schemaId);
  if (!schema) throw new AppError("NOT_FOUND", `the schema of suggestion ${s.key} is gone`);

  let chosen: string | null = null;
  if (input.decision === "accepted") chosen = s.value;
  if (input.decision === "changed") {
    const v = checkLabelValue(schema, input.value);
    if (!v.ok) throw new AppError("INVALID_INPUT", `value: ${v.message}`);
    chosen = v.value;
  }
  const decision = effectiveDecision(input.decision, s.value, chosen);
  const base = { suggestionKey: s.key, source: s.source, suggestedValue: s.value, decision };

  if (chosen === null) {
    try {
      await insertDecision(ctx.db, { ...base, trajectoryId: s.trajectoryId, annotatorId: ctx.actor.id, schemaId: s.schemaId, value: null });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const now = await findDecision(ctx.db, s.key, ctx.actor.id);
      throw now ? decided(now) : e;
    }
    await recordAudit(ctx, {
      action: "suggestion.decide",
      targetType: "suggestion",
      targetId: s.key,
      details: { decision, source: s.source, suggested: s.value },
    });
    return { suggestion: s.key, decision, label: null };
  }
  const label = await createLabel(
    ctx,
    { trajectory: s.trajectoryId, schema: schema.key, value: chosen, target: targetInputOf(s), comment: input.comment ?? null },
    { fromSuggestion: base },
  );
  await recordAudit(ctx, {
    action: "suggestion.decide",
    targetType: "suggestion",
    targetId: s.key,
    details: { decision, source: s.source, suggested: s.value, value: chosen, label: label.id },
  });
  return { suggestion: s.key, decision, label };
}

/**
 * Undo a decision (`u` after a, c or x): the label accepting or changing created is deleted (if still there and
 * unchanged since), then the decision, so the suggestion is offered again. The audit log keeps all three writes.
 */
export async function withdrawDecision(
  ctx: ServiceContext,
  suggestionKey: string,
): Promise<{ suggestion: string; labelId: string | null }> {
  authorize(ctx, "annotation:write");
  const d = await findDecision(ctx.db, suggestionKey, ctx.actor.id);
  if (!d) throw new AppError("NOT_FOUND", `you have no decision on suggestion ${suggestionKey}`);
  const label = d.annotationId ? await findLabel(ctx.db, d.annotationId) : null;
  if (label) await deleteLabel(ctx, label.id, label.version);
  await deleteDecision(ctx.db, d.id);
  await recordAudit(ctx, {
    action: "suggestion.withdraw",
    targetType: "suggestion",
    targetId: suggestionKey,
    details: { decision: d.decision, label: label?.id ?? null },
  });
  return { suggestion: suggestionKey, labelId: label?.id ?? null };
}

function decided(d: DecisionView): AppError {
  return new AppError("CONFLICT", `you already ${d.decision} this suggestion at ${d.createdAt}`, { current: d });
}
