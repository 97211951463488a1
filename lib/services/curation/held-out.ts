// Mark tasks held out of training data (an evaluation benchmark's list, say) or release them.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { addHeldOut, listHeldOut, removeHeldOut } from "../../db/repositories/datasets/candidates.ts";

/** "benchmark/id" or a bare id (any benchmark). */
export const heldOutRefSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .transform((s) => {
    const at = s.indexOf("/");
    return at > 0 ? { benchmark: s.slice(0, at), externalId: s.slice(at + 1) } : { benchmark: "*", externalId: s };
  })
  .refine((h) => h.externalId.length > 0, { message: "names no task id" });

export const heldOutInputSchema = z.object({
  tasks: z.array(heldOutRefSchema).min(1, "name at least one task").max(10_000),
  reason: z.string().trim().max(500).optional(),
});

export async function markHeldOut(ctx: ServiceContext, input: z.input<typeof heldOutInputSchema>): Promise<number> {
  authorize(ctx, "dataset:write");
  const h = heldOutInputSchema.parse(input);
  return addHeldOut(ctx.db, h.tasks, h.reason ?? null, ctx.actor.id);
}

export async function unmarkHeldOut(ctx: ServiceContext, input: z.input<typeof heldOutInputSchema>): Promise<number> {
  authorize(ctx, "dataset:write");
  return removeHeldOut(ctx.db, heldOutInputSchema.parse(input).tasks);
}

export async function listHeldOutTasks(ctx: ServiceContext) {
  authorize(ctx, "trajectory:read");
  return listHeldOut(ctx.db);
}
