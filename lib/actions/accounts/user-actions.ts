"use server";
// Server actions for the admin Users page: create an account, change a role, reset a password (user:manage).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getPageContext } from "../../services/page-context.ts";
import { createUser, resetPassword, setUserRole } from "../../services/accounts/manage-users.ts";
import { roleSchema, usernameSchema } from "../../domain/accounts.ts";
import { toActionError, type ActionResult } from "./result.ts";

const userRoleSchema = z.object({ name: usernameSchema, role: roleSchema });

export async function createUserAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const u = await createUser(ctx, userRoleSchema.parse(Object.fromEntries(form)));
    revalidatePath("/admin/users");
    return { ok: true, message: `Created ${u.name}. Give them this password (shown once):`, secret: u.password };
  } catch (e) {
    return toActionError(e);
  }
}

export async function setUserRoleAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const input = userRoleSchema.parse(Object.fromEntries(form));
    await setUserRole(ctx, input);
    revalidatePath("/admin/users");
    return { ok: true, message: `${input.name} is now ${input.role}.` };
  } catch (e) {
    return toActionError(e);
  }
}

export async function resetPasswordAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const { name } = z.object({ name: usernameSchema }).parse(Object.fromEntries(form));
    const { password } = await resetPassword(ctx, { name });
    revalidatePath("/admin/users");
    return { ok: true, message: `New password for ${name} (shown once):`, secret: password };
  } catch (e) {
    return toActionError(e);
  }
}
