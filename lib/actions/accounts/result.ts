// The shape every account action returns to its form: ok (with an optional one-time secret to show) or an error.
import { ZodError } from "zod";
import { isAppError } from "../../errors.ts";

export type ActionResult = { ok: true; message: string; secret?: string } | { ok: false; error: string } | null;

/** Expected failures (bad input, conflicts, permissions) become a message for the form; anything else is a bug. */
export function toActionError(e: unknown): ActionResult {
  if (e instanceof ZodError) return { ok: false, error: e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ") };
  if (isAppError(e)) return { ok: false, error: e.message };
  throw e;
}
