"use server";
// Server actions for the admin Users page: create an account, change a role, reset a password, disable / enable /
// delete an account (user:manage).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getPageContext } from "../../services/page-context.ts";
import { createUser, deleteUser, disableUser, enableUser, resetPassword, setUserRole } from "../../services/accounts/manage-users.ts";
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

const nameSchema = z.object({ name: usernameSchema });

export async function disableUserAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const { name } = nameSchema.parse(Object.fromEntries(form));
    const { changed } = await disableUser(ctx, { name });
    revalidatePath("/admin/users");
    return { ok: true, message: changed ? `${name} is disabled: signed out, API tokens revoked.` : `${name} was already disabled.` };
  } catch (e) {
    return toActionError(e);
  }
}

export async function enableUserAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const { name } = nameSchema.parse(Object.fromEntries(form));
    const { changed } = await enableUser(ctx, { name });
    revalidatePath("/admin/users");
    return { ok: true, message: changed ? `${name} is enabled and may sign in again.` : `${name} was already enabled.` };
  } catch (e) {
    return toActionError(e);
  }
}

export async function deleteUserAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const ctx = await getPageContext("user:manage");
  try {
    const { name } = nameSchema.parse(Object.fromEntries(form));
    await deleteUser(ctx, { name });
    revalidatePath("/admin/users");
    return { ok: true, message: `Deleted ${name}. Their labels and history keep their name.` };
  } catch (e) {
    return toActionError(e);
  }
}
