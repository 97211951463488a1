"use server";
// Server actions of the schema editor (admins, schema:write): save one schema from the editor form, import schemas
// from an uploaded JSON file. The acting user comes first (getPageContext), then the input is read and checked.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getPageContext } from "../services/page-context.ts";
import { importSchemas, saveSchema } from "../services/annotation/manage-schemas.ts";
import { isAppError } from "../errors.ts";

export type SchemaActionResult =
  | { ok: true; key: string; updatedAt: string; message: string }
  | { ok: false; error: string; fieldErrors?: Record<string, string> };

function failure(e: unknown): Extract<SchemaActionResult, { ok: false }> {
  if (e instanceof z.ZodError) {
    const fieldErrors = Object.fromEntries(e.issues.map((i) => [i.path.join("."), i.message]));
    return { ok: false, error: e.issues.map((i) => `${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "") || "input"}: ${i.message}`).join("; "), fieldErrors };
  }
  if (isAppError(e)) return { ok: false, error: e.message };
  throw e;
}

const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

/** Form fields: `schema` (the editor's JSON of one schema) and `expectedUpdatedAt` (empty for a new schema). */
export async function saveSchemaAction(_prev: SchemaActionResult | null, form: FormData): Promise<SchemaActionResult> {
  const ctx = await getPageContext("schema:write");
  try {
    const raw = form.get("schema");
    if (typeof raw !== "string" || raw.length > MAX_IMPORT_BYTES) return { ok: false, error: "schema: missing or too large" };
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return { ok: false, error: "schema: not JSON" };
    }
    const expected = form.get("expectedUpdatedAt");
    const saved = await saveSchema(ctx, json, typeof expected === "string" && expected ? expected : undefined);
    revalidatePath("/annotation/schemas");
    return { ok: true, key: saved.key, updatedAt: saved.updatedAt, message: `Saved ${saved.name}.` };
  } catch (e) {
    return failure(e);
  }
}

/** Form field `file`: a JSON file as GET /api/v1/label-schemas exports it. Nothing is written unless all of it is valid. */
export async function importSchemasAction(_prev: SchemaActionResult | null, form: FormData): Promise<SchemaActionResult> {
  const ctx = await getPageContext("schema:write");
  try {
    const file = form.get("file");
    if (!(file instanceof Blob) || file.size === 0) return { ok: false, error: "file: choose a JSON file exported from a schema list" };
    if (file.size > MAX_IMPORT_BYTES) return { ok: false, error: `file: larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB` };
    const r = await importSchemas(ctx, await file.text());
    revalidatePath("/annotation/schemas");
    const name = file instanceof File ? file.name : "file";
    return { ok: true, key: "", updatedAt: "", message: `Imported ${name}: ${r.created.length} created (${r.created.join(", ") || "none"}), ${r.updated.length} updated (${r.updated.join(", ") || "none"}).` };
  } catch (e) {
    return failure(e);
  }
}
