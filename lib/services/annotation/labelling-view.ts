// What the labelling panel next to the replay needs: the schemas that apply to this trajectory, the labels the actor
// may see (blind mode), the history, and — when opened from a queue — the actor's reservation.
import { authorize, type ServiceContext } from "../context.ts";
import { AppError } from "../../errors.ts";
import { can } from "../../domain/authz.ts";
import type { LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import { listLabelSchemas } from "../../db/repositories/annotation/schemas.ts";
import { findTargetFacts, listLabels, type LabelEventView, type LabelView } from "../../db/repositories/annotation/labels.ts";
import { findSlot } from "../../db/repositories/annotation/queues.ts";
import { getLabelHistory, visibleAnnotators } from "./list-labels.ts";
import { openQueue } from "./manage-queues.ts";
import { listSuggestions, type SuggestionView } from "./suggestions/list-suggestions.ts";
import { defaultTarget, targetWords, type DefaultTarget } from "../../domain/annotation/default-target.ts";
import { findStepGist, loadTargetContext } from "../../db/repositories/annotation/target-context.ts";

/** A schema's default target on this trajectory, with its words ("fork point after step 9 · rg … → exit 127"). */
export interface SchemaDefault extends DefaultTarget {
  words: string;
}

export interface QueueContext {
  queueId: string;
  queueName: string;
  slotId: string;
  schemaKeys: string[];
  position: number;
  itemCount: number;
  expiresAt: string | null;
}

export interface LabellingView {
  canLabel: boolean;
  actorId: string;
  isAttempt: boolean;
  schemas: LabelSchemaView[];
  labels: LabelView[];
  history: LabelEventView[];
  blind: boolean;
  queue: QueueContext | null;
  /**
   * The first page of the suggestions (detector, imported) this annotator has not decided yet, in list order; the
   * rest is fetched in ranges (`/api/v1/annotations/suggestions?after=&limit=`). Empty for those who cannot label.
   */
  suggestions: SuggestionView[];
  /** Undecided suggestions in all, and whether more follow the first page. */
  suggestionTotal: number;
  suggestionsMore: boolean;
  /** Where each schema's label goes unless the annotator picks another target, by schema id. */
  defaults: Record<string, SchemaDefault>;
}

/** Suggestions sent with the page: a long trajectory has hundreds (each a row with three buttons), most of the HTML. */
export const SUGGESTION_FIRST_PAGE = 20;

export async function getLabellingView(ctx: ServiceContext, trajectory: string, opts: { slotId?: string } = {}): Promise<LabellingView> {
  authorize(ctx, "trajectory:read");
  const facts = await findTargetFacts(ctx.db, trajectory);
  if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${trajectory}"`);
  const ids = await visibleAnnotators(ctx, facts.id);
  const kinds = facts.isAttempt ? ["attempt", "step_range", "fork_point"] : ["trajectory", "step_range", "fork_point"];
  const schemas = (await listLabelSchemas(ctx.db, { activeOnly: true })).filter(
    (s) => s.kind !== "ranking" && s.targets.some((t) => kinds.includes(t)),
  ); // rankings: the compare view
  const firstPage = can(ctx.actor, "annotation:write")
    ? await listSuggestions(ctx, { trajectory: facts.id, limit: SUGGESTION_FIRST_PAGE })
    : { suggestions: [], total: 0, more: false };
  let queue: QueueContext | null = null;
  if (opts.slotId && can(ctx.actor, "annotation:write")) {
    const slot = await findSlot(ctx.db, opts.slotId);
    if (slot && slot.annotatorId === ctx.actor.id && slot.trajectoryId === facts.id && slot.status === "reserved") {
      const q = await openQueue(ctx, slot.queueId);
      queue = {
        queueId: q.id,
        queueName: q.name,
        slotId: slot.slotId,
        schemaKeys: q.schemaKeys,
        position: slot.position,
        itemCount: q.itemCount,
        expiresAt: slot.expiresAt,
      };
    }
  }
  const defaults = await schemaDefaults(ctx, facts.id, schemas);
  return {
    defaults,
    canLabel: can(ctx.actor, "annotation:write"),
    actorId: ctx.actor.id,
    isAttempt: facts.isAttempt,
    schemas: queue
      ? [...schemas].sort((a, b) => Number(queue!.schemaKeys.includes(b.key)) - Number(queue!.schemaKeys.includes(a.key)))
      : schemas,
    labels: await listLabels(ctx.db, { trajectoryId: facts.id, annotatorIds: ids, limit: 1000 }),
    history: (await getLabelHistory(ctx, facts.id)).slice(0, 50),
    blind: ids !== undefined,
    queue,
    suggestions: firstPage.suggestions,
    suggestionTotal: firstPage.total,
    suggestionsMore: firstPage.more,
  };
}

async function schemaDefaults(
  ctx: ServiceContext,
  trajectoryId: string,
  schemas: LabelSchemaView[],
): Promise<Record<string, SchemaDefault>> {
  const context = await loadTargetContext(ctx.db, trajectoryId, ctx.actor.id);
  if (!context) return {};
  const out: Record<string, SchemaDefault> = {};
  const gists = new Map<number, Awaited<ReturnType<typeof findStepGist>>>();
  for (const s of schemas) {
    const d = defaultTarget(s.targets, context);
    if (!d) continue;
    if (d.step !== null && !gists.has(d.step)) gists.set(d.step, await findStepGist(ctx.db, trajectoryId, d.step));
    out[s.id] = { ...d, words: targetWords(d, d.step !== null ? gists.get(d.step) : null) };
  }
  return out;
}
