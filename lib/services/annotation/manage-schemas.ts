// Label schemas: everyone who labels reads them; admins create and edit them (options are retired, never removed,
// so existing labels stay readable) and move them between instances as JSON.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { labelSchemaInputSchema, mergeOptions, type LabelSchemaView } from "../../domain/annotation/label-schema.ts";
import {
  countLabelsBySchema,
  countLabelsOfSchema,
  createLabelSchema,
  findLabelSchema,
  listLabelSchemas,
  updateLabelSchema,
} from "../../db/repositories/annotation/schemas.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";

export async function listSchemas(ctx: ServiceContext): Promise<LabelSchemaView[]> {
  authorize(ctx, "trajectory:read");
  return listLabelSchemas(ctx.db);
}

/** The schema editor's list (admins): every schema with how many labels use it. */
export async function listSchemasForEditor(ctx: ServiceContext): Promise<(LabelSchemaView & { labelCount: number })[]> {
  authorize(ctx, "schema:write");
  const [all, counts] = await Promise.all([listLabelSchemas(ctx.db), countLabelsBySchema(ctx.db)]);
  return all.map((s) => ({ ...s, labelCount: counts.get(s.id) ?? 0 }));
}

/** One schema for the editor, with how many labels use it (the editor says edits never rewrite them). */
export async function getSchema(ctx: ServiceContext, key: string): Promise<LabelSchemaView & { labelCount: number }> {
  authorize(ctx, "trajectory:read");
  const s = await findLabelSchema(ctx.db, key);
  if (!s) throw new AppError("NOT_FOUND", `no label schema "${key}"`);
  return { ...s, labelCount: await countLabelsOfSchema(ctx.db, s.id) };
}

/** "new" is the editor's URL for a schema not created yet (/annotation/schemas/new). */
const RESERVED_SCHEMA_KEYS = new Set(["new"]);

/** Create a schema, or change one at the `updatedAt` the editor read (409 when someone saved first). */
export async function saveSchema(ctx: ServiceContext, raw: unknown, expectedUpdatedAt?: string): Promise<LabelSchemaView> {
  authorize(ctx, "schema:write");
  const input = labelSchemaInputSchema.parse(raw);
  const existing = await findLabelSchema(ctx.db, input.key);
  if (!existing) {
    if (RESERVED_SCHEMA_KEYS.has(input.key)) throw new AppError("INVALID_INPUT", `key: "${input.key}" is reserved; choose another key`);
    try {
      const created = await createLabelSchema(ctx.db, input);
      await recordAudit(ctx, {
        action: "schema.change",
        targetType: "label-schema",
        targetId: input.key,
        details: { change: "create", kind: input.kind },
      });
      return created;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError("CONFLICT", `schema "${input.key}" was created meanwhile`);
      throw e;
    }
  }
  if (!expectedUpdatedAt) throw new AppError("CONFLICT", `schema "${input.key}" exists; edit it from its current version`);
  if (existing.kind !== input.kind)
    throw new AppError(
      "INVALID_INPUT",
      `kind: a schema's kind cannot change (${existing.kind} → ${input.kind}); existing labels would no longer read`,
    );
  const saved = await updateLabelSchema(ctx.db, existing.id, expectedUpdatedAt, {
    ...input,
    options: mergeOptions(existing.options, input.options),
  });
  if (!saved) throw new AppError("CONFLICT", `schema "${input.key}" was changed by someone else since you opened it; reload before saving`);
  await recordAudit(ctx, { action: "schema.change", targetType: "label-schema", targetId: input.key, details: { change: "update" } });
  return saved;
}

const exportSchema = z.array(labelSchemaInputSchema);

/** All schemas as JSON (the import format). */
export async function exportSchemas(ctx: ServiceContext): Promise<string> {
  const all = await listSchemas(ctx);
  return JSON.stringify(
    all.map(({ key, name, description, kind, targets, options, active }) => ({ key, name, description, kind, targets, options, active })),
    null,
    2,
  );
}

/** "schemas[2] (tone): options[1].hotkey: hotkey "1" is used twice" — which schema and which field. */
function describeIssues(list: unknown, error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const [index, ...rest] = i.path;
      if (typeof index !== "number") return i.message;
      const key =
        Array.isArray(list) && list[index] && typeof list[index] === "object" && typeof (list[index] as { key?: unknown }).key === "string"
          ? ` (${(list[index] as { key: string }).key})`
          : "";
      const field = rest
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "");
      return `schemas[${index}]${key}: ${field ? `${field}: ` : ""}${i.message}`;
    })
    .join("; ");
}

/**
 * Import schemas from JSON (an array, as exported): new keys are created, existing ones updated (their options
 * merged, never dropped). Everything is checked before anything is written — shape, hotkeys, kinds that would
 * change — so a bad file writes nothing; errors name the schema and the field.
 */
export async function importSchemas(ctx: ServiceContext, text: string): Promise<{ created: string[]; updated: string[] }> {
  authorize(ctx, "schema:write");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AppError("INVALID_INPUT", `not JSON: ${(e as Error).message}`);
  }
  const parsed = exportSchema.safeParse(json);
  if (!parsed.success) throw new AppError("INVALID_INPUT", describeIssues(json, parsed.error));
  const list = parsed.data;
  const seen = new Set<string>();
  const existing = new Map<string, LabelSchemaView | null>();
  for (const [i, s] of list.entries()) {
    if (seen.has(s.key)) throw new AppError("INVALID_INPUT", `schemas[${i}] (${s.key}): key: appears twice in the file`);
    seen.add(s.key);
    const e = await findLabelSchema(ctx.db, s.key);
    if (e && e.kind !== s.kind)
      throw new AppError("INVALID_INPUT", `schemas[${i}] (${s.key}): kind: a schema's kind cannot change (${e.kind} → ${s.kind})`);
    if (!e && RESERVED_SCHEMA_KEYS.has(s.key)) throw new AppError("INVALID_INPUT", `schemas[${i}] (${s.key}): key: "${s.key}" is reserved`);
    existing.set(s.key, e);
  }
  const out = { created: [] as string[], updated: [] as string[] };
  for (const s of list) {
    const e = existing.get(s.key);
    await saveSchema(ctx, s, e?.updatedAt);
    (e ? out.updated : out.created).push(s.key);
  }
  return out;
}
