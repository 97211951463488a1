// Create, change and delete one human label. Saving over a label that moved on since it was read is refused (409)
// with who changed it; labels belong to their annotator (reviewers with annotation:adjudicate may correct others').
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { can } from "../../domain/authz.ts";
import { checkLabelValue } from "../../domain/annotation/label-schema.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import {
  deleteLabelIfVersion,
  findLabel,
  findLabelByTarget,
  insertLabel,
  listLabelEvents,
  updateLabelIfVersion,
  type LabelView,
} from "../../db/repositories/annotation/labels.ts";
import { findDecision, type NewDecision } from "../../db/repositories/annotation/suggestions.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { labelChangeSchema, labelInputSchema } from "./label-input.ts";
import { checkRanking, resolveOrThrow } from "./resolve-label.ts";

/**
 * Label a target as the acting user. 409 when this user already labelled it (edit that label instead). `fromSuggestion`
 * (accepting or changing a suggestion) records that decision with the label, in its transaction.
 */
export async function createLabel(
  ctx: ServiceContext,
  raw: unknown,
  opts: { fromSuggestion?: Omit<NewDecision, "annotatorId" | "trajectoryId" | "schemaId" | "value"> } = {},
): Promise<LabelView> {
  authorize(ctx, "annotation:write");
  const input = labelInputSchema.parse(raw);
  const { label } = await resolveOrThrow(ctx.db, input);
  const decision = opts.fromSuggestion
    ? { ...opts.fromSuggestion, annotatorId: ctx.actor.id, trajectoryId: label.trajectoryId, schemaId: label.schemaId, value: label.value }
    : undefined;
  try {
    const saved = await insertLabel(ctx.db, { ...label, annotatorId: ctx.actor.id }, ctx.actor.id, { decision });
    await recordAudit(ctx, {
      action: "label.write",
      targetType: "label",
      targetId: saved.id,
      details: {
        change: "create",
        targetKey: saved.targetKey,
        value: saved.value,
        ...(decision ? { suggestion: decision.suggestionKey, decision: decision.decision } : {}),
      },
    });
    return saved;
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    if (decision && (await findDecision(ctx.db, decision.suggestionKey, ctx.actor.id)))
      throw new AppError("CONFLICT", "you already decided on this suggestion");
    const existing = await findLabelByTarget(ctx.db, label.schemaId, ctx.actor.id, label.targetKey);
    throw new AppError("CONFLICT", `you already labelled this target (version ${existing?.version ?? "?"}); change that label instead`, {
      current: existing,
    });
  }
}

async function conflict(ctx: ServiceContext, id: string, expected: number): Promise<never> {
  const current = await findLabel(ctx.db, id);
  if (!current) throw new AppError("CONFLICT", "this label was deleted meanwhile", { current: null });
  const [last] = await listLabelEvents(ctx.db, { annotationId: id }, 1);
  const who = last ? `${last.actorName} at ${last.createdAt}` : "someone";
  throw new AppError(
    "CONFLICT",
    `this label was changed by ${who} (version ${current.version}, you edited version ${expected}); reload to see the change before saving`,
    { current },
  );
}

async function ownedLabel(ctx: ServiceContext, id: string): Promise<LabelView> {
  const label = await findLabel(ctx.db, id);
  if (!label) throw new AppError("NOT_FOUND", `no label ${id}`);
  if (label.annotatorId !== ctx.actor.id && !can(ctx.actor, "annotation:adjudicate")) {
    // Annotators cannot see others' labels either, so this is "not found" rather than "forbidden".
    throw new AppError("NOT_FOUND", `no label ${id}`);
  }
  return label;
}

export async function updateLabel(ctx: ServiceContext, raw: unknown): Promise<LabelView> {
  authorize(ctx, "annotation:write");
  const change = labelChangeSchema.parse(raw);
  const label = await ownedLabel(ctx, change.id);
  if (label.version !== change.version) await conflict(ctx, change.id, change.version);
  let value = label.value;
  if (change.value !== undefined) {
    const schema = await findLabelSchema(ctx.db, label.schemaId);
    if (!schema) throw new AppError("NOT_FOUND", `schema of label ${label.id} is gone`);
    // A label may keep a retired value it already had; choosing one anew is refused.
    const v = checkLabelValue(schema, change.value, { allowRetired: change.value === label.value });
    if (!v.ok) throw new AppError("INVALID_INPUT", `value: ${v.message}`);
    const problem = schema.kind === "ranking" ? await checkRanking(ctx.db, v.value, label.forkPointId) : null;
    if (problem) throw new AppError("INVALID_INPUT", `value: ${problem}`);
    value = v.value;
  }
  const comment = change.comment === undefined ? label.comment : change.comment?.trim() ? change.comment.trim() : null;
  const saved = await updateLabelIfVersion(ctx.db, change.id, change.version, { value, comment }, ctx.actor.id);
  if (!saved) return conflict(ctx, change.id, change.version);
  await recordAudit(ctx, {
    action: "label.write",
    targetType: "label",
    targetId: saved.id,
    details: { change: "update", from: label.value, to: saved.value, version: saved.version },
  });
  return saved;
}

export async function deleteLabel(ctx: ServiceContext, id: string, version: number): Promise<void> {
  authorize(ctx, "annotation:write");
  const label = await ownedLabel(ctx, id);
  if (label.version !== version) await conflict(ctx, id, version);
  if (!(await deleteLabelIfVersion(ctx.db, id, version, ctx.actor.id))) await conflict(ctx, id, version);
  await recordAudit(ctx, {
    action: "label.write",
    targetType: "label",
    targetId: id,
    details: { change: "delete", value: label.value, version },
  });
}
