// What a chat export can be asked for beyond its format: observations as seen or raw, the failed context as turns
// (masked where the format can) or folded into the first user turn, and a token budget per row.
import { z } from "zod";

export const OBSERVATION_MODES = ["rendered", "raw"] as const;
export const CONTEXT_MODES = ["turns", "prompt"] as const;

export const exportOptionsSchema = z.object({
  observations: z.enum(OBSERVATION_MODES, { message: `must be one of ${OBSERVATION_MODES.join(", ")}` }).default("rendered"),
  /** Omitted → the format's default (prompt for sharegpt, which has no per-turn mask; turns for the others). */
  context: z.enum(CONTEXT_MODES, { message: `must be one of ${CONTEXT_MODES.join(", ")}` }).optional(),
  maxTokens: z.number().int().min(16, "must be at least 16").max(10_000_000).nullable().default(null),
});
export type ExportOptionsInput = z.input<typeof exportOptionsSchema>;

export interface ExportOptions {
  observations: (typeof OBSERVATION_MODES)[number];
  context: (typeof CONTEXT_MODES)[number];
  maxTokens: number | null;
}

/** The options with the format's defaults filled in. */
export function resolveOptions(format: string, input: ExportOptionsInput | undefined): ExportOptions {
  const o = exportOptionsSchema.parse(input ?? {});
  return { observations: o.observations, context: o.context ?? (format === "sharegpt" ? "prompt" : "turns"), maxTokens: o.maxTokens };
}

/** Whether an export with these options is the one stored when a version is frozen (stored exports use defaults). */
export const isDefaultOptions = (format: string, o: ExportOptions) => {
  const d = resolveOptions(format, undefined);
  return o.observations === d.observations && o.context === d.context && o.maxTokens === d.maxTokens;
};
