"use server";
// Server actions of the schema editor (admins, schema:write): save one schema from the editor form, import schemas
// from an uploaded JSON file. lib/http/action.ts checks the permission before the form is read.
import { z } from "zod";
import { defineAction } from "../http/action.ts";
import { importSchemas, saveSchema } from "../services/annotation/manage-schemas.ts";

const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

/** Form fields: `schema` (the editor's JSON of one schema) and `expectedUpdatedAt` (empty for a new schema). */
const saveFormSchema = z.object({
  schema: z
    .string({ error: "missing or too large" })
    .max(MAX_IMPORT_BYTES, "missing or too large")
    .transform((raw, c) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        c.addIssue({ code: "custom", message: "not JSON" });
        return z.NEVER;
      }
    }),
  expectedUpdatedAt: z
    .string()
    .optional()
    .transform((v) => v || undefined),
});

export const saveSchemaAction = defineAction(
  "schema:write",
  saveFormSchema,
  async (ctx, v) => {
    const saved = await saveSchema(ctx, v.schema, v.expectedUpdatedAt);
    return { key: saved.key, updatedAt: saved.updatedAt, message: `Saved ${saved.name}.` };
  },
  { revalidate: "/annotation/schemas" },
);

/** Form field `file`: a JSON file as GET /api/v1/label-schemas exports it. Nothing is written unless all of it is valid. */
const importFormSchema = z.object({
  file: z
    .instanceof(Blob, { error: "choose a JSON file exported from a schema list" })
    .refine((f) => f.size > 0, "choose a JSON file exported from a schema list")
    .refine((f) => f.size <= MAX_IMPORT_BYTES, `larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`),
});

export const importSchemasAction = defineAction(
  "schema:write",
  importFormSchema,
  async (ctx, { file }) => {
    const r = await importSchemas(ctx, await file.text());
    const name = file instanceof File ? file.name : "file";
    return {
      message: `Imported ${name}: ${r.created.length} created (${r.created.join(", ") || "none"}), ${r.updated.length} updated (${r.updated.join(", ") || "none"}).`,
    };
  },
  { revalidate: "/annotation/schemas" },
);
