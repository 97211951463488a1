"use server";
// Server actions for the API tokens page: create (shown once) and revoke one's own tokens; admins any token.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getPageContext } from "../../services/page-context.ts";
import { createApiTokenFor, revokeApiToken } from "../../services/accounts/api-tokens.ts";
import { toActionError, type ActionResult } from "./result.ts";

export async function createTokenAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("trajectory:read");
  try {
    const { name } = z.object({ name: z.string().trim().min(1, "give the token a name").max(100) }).parse(Object.fromEntries(form));
    const t = await createApiTokenFor(ctx, { tokenName: name });
    revalidatePath("/account/tokens");
    return { ok: true, message: `Token "${name}" created. Copy it now; it is not shown again:`, secret: t.token };
  } catch (e) {
    return toActionError(e);
  }
}

export async function revokeTokenAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("trajectory:read");
  try {
    const { id } = z.object({ id: z.string().trim().min(1).max(64) }).parse(Object.fromEntries(form));
    const r = await revokeApiToken(ctx, id);
    revalidatePath("/account/tokens");
    return { ok: true, message: r.revoked ? "Token revoked." : "That token was already revoked." };
  } catch (e) {
    return toActionError(e);
  }
}
