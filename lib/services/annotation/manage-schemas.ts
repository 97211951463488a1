// Label schemas: everyone who labels reads them; admins create and edit them (options are retired, never removed,
// so existing labels stay readable) and move them between instances as JSON.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { labelSchemaInputSchema, mergeOptions, type LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import { createLabelSchema, findLabelSchema, listLabelSchemas, updateLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";

export async function listSchemas(ctx: ServiceContext): Promise<LabelSchemaView[]> {
  authorize(ctx, "trajectory:read");
  return listLabelSchemas(ctx.db);
}

/** Create a schema, or change one at the `updatedAt` the editor read (409 when someone saved first). */
export async function saveSchema(ctx: ServiceContext, raw: unknown, expectedUpdatedAt?: string): Promise<LabelSchemaView> {
  authorize(ctx, "schema:write");
  const input = labelSchemaInputSchema.parse(raw);
  const existing = await findLabelSchema(ctx.db, input.key);
  if (!existing) {
    try {
      const created = await createLabelSchema(ctx.db, input);
      await recordAudit(ctx, { action: "schema.change", targetType: "label-schema", targetId: input.key, details: { change: "create", kind: input.kind } });
      return created;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError("CONFLICT", `schema "${input.key}" was created meanwhile`);
      throw e;
    }
  }
  if (!expectedUpdatedAt) throw new AppError("CONFLICT", `schema "${input.key}" exists; edit it from its current version`);
  if (existing.kind !== input.kind) throw new AppError("INVALID_INPUT", `kind: a schema's kind cannot change (${existing.kind} → ${input.kind}); existing labels would no longer read`);
  const saved = await updateLabelSchema(ctx.db, existing.id, expectedUpdatedAt, { ...input, options: mergeOptions(existing.options, input.options) });
  if (!saved) throw new AppError("CONFLICT", `schema "${input.key}" was changed by someone else since you opened it; reload before saving`);
  await recordAudit(ctx, { action: "schema.change", targetType: "label-schema", targetId: input.key, details: { change: "update" } });
  return saved;
}

const exportSchema = z.array(labelSchemaInputSchema);

/** All schemas as JSON (the import format). */
export async function exportSchemas(ctx: ServiceContext): Promise<string> {
  const all = await listSchemas(ctx);
  return JSON.stringify(all.map(({ key, name, description, kind, targets, options, active }) => ({ key, name, description, kind, targets, options, active })), null, 2);
}

/** Import schemas from JSON: new keys are created, existing ones updated (their options merged, never dropped). */
export async function importSchemas(ctx: ServiceContext, text: string): Promise<{ created: string[]; updated: string[] }> {
  authorize(ctx, "schema:write");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AppError("INVALID_INPUT", `not JSON: ${(e as Error).message}`);
  }
  const list = exportSchema.parse(json);
  const out = { created: [] as string[], updated: [] as string[] };
  for (const s of list) {
    const existing = await findLabelSchema(ctx.db, s.key);
    await saveSchema(ctx, s, existing?.updatedAt);
    (existing ? out.updated : out.created).push(s.key);
  }
  return out;
}
