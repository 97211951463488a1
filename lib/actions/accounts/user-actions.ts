"use server";
// Server actions for the admin Users page: create an account, change a role, reset a password, disable / enable /
// delete an account (user:manage).
import { z } from "zod";
import { defineAction } from "../../http/action.ts";
import { createUser, deleteUser, disableUser, enableUser, resetPassword, setUserRole } from "../../services/accounts/manage-users.ts";
import { roleSchema, usernameSchema } from "../../domain/accounts.ts";

const userRoleSchema = z.object({ name: usernameSchema, role: roleSchema });
const nameSchema = z.object({ name: usernameSchema });
const USERS = { revalidate: "/admin/users" };

export const createUserAction = defineAction(
  "user:manage",
  userRoleSchema,
  async (ctx, input) => {
    const u = await createUser(ctx, input);
    return { message: `Created ${u.name}. Give them this password (shown once):`, secret: u.password };
  },
  USERS,
);

export const setUserRoleAction = defineAction(
  "user:manage",
  userRoleSchema,
  async (ctx, input) => {
    await setUserRole(ctx, input);
    return { message: `${input.name} is now ${input.role}.` };
  },
  USERS,
);

export const resetPasswordAction = defineAction(
  "user:manage",
  nameSchema,
  async (ctx, { name }) => {
    const { password } = await resetPassword(ctx, { name });
    return { message: `New password for ${name} (shown once):`, secret: password };
  },
  USERS,
);

export const disableUserAction = defineAction(
  "user:manage",
  nameSchema,
  async (ctx, { name }) => {
    const { changed } = await disableUser(ctx, { name });
    return { message: changed ? `${name} is disabled: signed out, API tokens revoked.` : `${name} was already disabled.` };
  },
  USERS,
);

export const enableUserAction = defineAction(
  "user:manage",
  nameSchema,
  async (ctx, { name }) => {
    const { changed } = await enableUser(ctx, { name });
    return { message: changed ? `${name} is enabled and may sign in again.` : `${name} was already enabled.` };
  },
  USERS,
);

export const deleteUserAction = defineAction(
  "user:manage",
  nameSchema,
  async (ctx, { name }) => {
    await deleteUser(ctx, { name });
    return { message: `Deleted ${name}. Their labels and history keep their name.` };
  },
  USERS,
);
