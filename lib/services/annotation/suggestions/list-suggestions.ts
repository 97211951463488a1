// The suggestions on one trajectory the acting user has not decided yet. Decisions are per annotator, so blind mode
// holds: nobody sees another annotator's decisions, and a suggestion someone else accepted is still offered to you.
// With `limit`, one page in list order after the suggestion `after` (its key; decided or not, it still marks the
// place), so a long trajectory's hundreds of suggestions arrive in ranges as the list is scrolled.
import { z } from "zod";
import { authorize, type ServiceContext } from "../../context.ts";
import { AppError } from "../../../errors.ts";
import { findTargetFacts } from "../../../db/repositories/annotation/labels.ts";
import {
  compareSuggestions,
  findSuggestion,
  listPendingSuggestions,
  type SuggestionView,
} from "../../../db/repositories/annotation/suggestions.ts";
import { detectorSchema } from "./error-schema.ts";

export const suggestionQuerySchema = z
  .object({
    trajectory: z.string().trim().min(1).max(200),
    after: z.string().trim().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional(),
  })
  .strict();

export type { SuggestionView };

export interface SuggestionPage {
  suggestions: SuggestionView[];
  /** Undecided suggestions in all (pages included). */
  total: number;
  /** More after the last one returned. */
  more: boolean;
}

export async function listSuggestions(ctx: ServiceContext, raw: unknown): Promise<SuggestionPage> {
  authorize(ctx, "trajectory:read");
  const q = suggestionQuerySchema.parse(raw);
  const facts = await findTargetFacts(ctx.db, q.trajectory);
  if (!facts) throw new AppError("NOT_FOUND", `no trajectory "${q.trajectory}"`);
  const schema = await detectorSchema(ctx.db);
  const all = await listPendingSuggestions(ctx.db, facts.id, ctx.actor.id, schema?.id ?? null);
  let rest = all;
  if (q.after !== undefined) {
    const mark = await findSuggestion(ctx.db, q.after, schema?.id ?? null);
    if (!mark || mark.trajectoryId !== facts.id) throw new AppError("INVALID_INPUT", `no suggestion "${q.after}" on this trajectory`);
    rest = all.filter((s) => compareSuggestions(s, mark) > 0);
  }
  const suggestions = q.limit !== undefined ? rest.slice(0, q.limit) : rest;
  return { suggestions, total: all.length, more: suggestions.length < rest.length };
}
