// The suggestions on one trajectory the acting user has not decided yet. Decisions are per annotator, so blind mode
// holds: nobody sees another annotator's decisions, and a suggestion someone else accepted is still offered to you.
import { z } from "zod";
import { authorize, type ServiceContext } from "../../context.ts";
import { AppError } from "../../../errors.ts";
import { findTargetFacts } from "../../../db/repositories/annotation/labels.ts";
import { listPendingSuggestions, type SuggestionView } from "../../../db/repositories/annotation/suggestions.ts";
import { detectorSchema } from "./error-schema.ts";

export const suggestionQuerySchema = z.object({ trajectory: z.string().trim().min(1).max(200) }).strict();

export type { SuggestionView };

export async function listSuggestions(ctx: ServiceContext, raw: unknown): Promise<{ suggestions: SuggestionView[] }> {
  authorize(ctx, "trajectory:read");
  const q = suggestionQuerySchema.parse(raw);
  const facts = await findTargetFacts(ctx.db, q.trajectory);
  if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${q.trajectory}"`);
  const schema = await detectorSchema(ctx.db);
  return { suggestions: await listPendingSuggestions(ctx.db, facts.id, ctx.actor.id, schema?.id ?? null) };
}
