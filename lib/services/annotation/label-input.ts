// The one zod shape of a label as people, files and the API write it (docs/api.md, `reterm labels import`).
import { z } from "zod";
import { targetInputSchema } from "../../domain/annotation/targets.ts";

export const labelInputSchema = z
  .object({
    trajectory: z.string().trim().min(1).max(200),
    schema: z.string().trim().min(1).max(100),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
    target: targetInputSchema.optional(),
    comment: z.string().max(4000).nullish(),
  })
  .strict();
export type LabelInput = z.infer<typeof labelInputSchema>;

export const labelChangeSchema = z
  .object({
    id: z.string().min(1).max(100),
    /** The version the client read: the save is refused (409) when the label moved on since. */
    version: z.number().int().positive(),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
    comment: z.string().max(4000).nullish(),
  })
  .strict();
export type LabelChange = z.infer<typeof labelChangeSchema>;
