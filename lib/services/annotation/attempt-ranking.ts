// Ranking the recovery attempts of one fork point (compare view): the ranking schema to use and the actor's own
// ranking label, if any. Saving goes through the ordinary label services (history, 409 on a stale version).
import { authorize, type ServiceContext } from "../context.ts";
import { can } from "../../domain/authz.ts";
import type { LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import { listLabelSchemas } from "../../db/repositories/annotation/schemas.ts";
import { findLabelByTarget, type LabelView } from "../../db/repositories/annotation/labels.ts";

export interface RankingView {
  schema: Pick<LabelSchemaView, "key" | "name" | "description">;
  targetKey: string;
  actorId: string;
  canRank: boolean;
  mine: Pick<LabelView, "id" | "version" | "value" | "updatedAt"> | null;
}

/** Null when no active ranking schema labels fork points (an admin can create one in the schema editor). */
export async function getRankingView(ctx: ServiceContext, parentId: string, forkStep: number): Promise<RankingView | null> {
  authorize(ctx, "trajectory:read");
  // The first active ranking schema for fork points (the default is attempt-ranking).
  const schema = (await listLabelSchemas(ctx.db, { activeOnly: true })).find(
    (s) => s.kind === "ranking" && s.targets.includes("fork_point"),
  );
  if (!schema) return null;
  const targetKey = `fork:${parentId}:${forkStep}`;
  const mine = await findLabelByTarget(ctx.db, schema.id, ctx.actor.id, targetKey);
  return {
    schema: { key: schema.key, name: schema.name, description: schema.description },
    targetKey,
    actorId: ctx.actor.id,
    canRank: can(ctx.actor, "annotation:write"),
    mine: mine ? { id: mine.id, version: mine.version, value: mine.value, updatedAt: mine.updatedAt } : null,
  };
}
