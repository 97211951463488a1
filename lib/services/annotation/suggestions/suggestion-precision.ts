// The detector's precision per error category, from annotators' decisions on its suggestions: of the decisions on a
// category's suggestions, the share accepted as suggested (Wilson 95% interval). Every decision counts once, so a
// suggestion two annotators decided counts twice. The same for an imported source (`source=imported:<name>`).
import { z } from "zod";
import { authorize, type ServiceContext } from "../../context.ts";
import { AppError } from "../../../errors.ts";
import { DETECTOR_SOURCE, precisionByCategory, suggestionSourceSchema, type PrecisionRow } from "../../../domain/annotation/suggestions.ts";
import { findLabelSchema } from "../../../db/repositories/annotation/schemas.ts";
import { countDecisions, listSuggestionSources } from "../../../db/repositories/annotation/suggestions.ts";
import { ERROR_SCHEMA_KEY } from "./error-schema.ts";

export const precisionQuerySchema = z
  .object({
    source: suggestionSourceSchema.default(DETECTOR_SOURCE),
    schema: z.string().trim().min(1).max(100).default(ERROR_SCHEMA_KEY),
  })
  .strict();

export interface SuggestionPrecision {
  source: string;
  schema: string;
  categories: PrecisionRow[];
  overall: PrecisionRow;
  /** Sources there are figures for (detector first), for a picker. */
  sources: string[];
}

export async function getSuggestionPrecision(ctx: ServiceContext, raw: unknown = {}): Promise<SuggestionPrecision> {
  authorize(ctx, "trajectory:read");
  const q = precisionQuerySchema.parse(raw);
  const schema = await findLabelSchema(ctx.db, q.schema);
  if (!schema) throw new AppError("NOT_FOUND", `unknown schema "${q.schema}"`);
  const [counts, sources] = await Promise.all([countDecisions(ctx.db, q.source, schema.id), listSuggestionSources(ctx.db)]);
  return {
    source: q.source,
    schema: schema.key,
    ...precisionByCategory(
      counts,
      schema.options.map((o) => o.value),
    ),
    sources,
  };
}
