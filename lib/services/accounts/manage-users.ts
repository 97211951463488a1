// Use cases: create accounts, change roles, reset passwords, disable / enable / delete, list users (admins; the CLI
// acts as the account RETERM_USER names — lib/services/cli-context.ts).
import { randomBytes } from "node:crypto";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { getEnv } from "../../env.ts";
import { usernameSchema } from "../../domain/accounts.ts";
import type { Role } from "../../domain/authz.ts";
import {
  changeAccount,
  createUserRow,
  findUserRow,
  listUsers as listUserRows,
  setUsername,
  type AccountChange,
  type UserSummary,
} from "../../db/repositories/accounts/users.ts";
import { setPassword } from "../../db/auth/credentials.ts";

export type UserState = "active" | "disabled" | "deleted";
/** A user as the Users page shows it; `localAccount`: the account RETERM_USER names (local mode and the CLI act as it). */
export type UserListing = UserSummary & { state: UserState; localAccount: boolean };

/** 20 random characters from a URL-safe alphabet (120 bits): shown once, never stored in clear. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

export async function listUsers(ctx: ServiceContext): Promise<UserListing[]> {
  authorize(ctx, "user:manage");
  const local = getEnv().RETERM_USER;
  return (await listUserRows(ctx.db)).map((u) => ({
    ...u,
    state: u.deletedAt ? "deleted" : u.disabledAt ? "disabled" : "active",
    localAccount: u.name === local,
  }));
}

/** Create an account with a generated password (returned once). A name already taken is a 409. */
export async function createUser(
  ctx: ServiceContext,
  input: { name: string; role: Role },
): Promise<{ id: string; name: string; password: string }> {
  authorize(ctx, "user:manage");
  const name = usernameSchema.parse(input.name);
  const existing = await findUserRow(ctx.db, name);
  if (existing?.deletedAt)
    throw new AppError(
      "CONFLICT",
      `"${name}" was a deleted account; its name stays reserved so its labels and history keep one author. Choose another name`,
    );
  if (existing) throw new AppError("CONFLICT", `A user named "${name}" already exists`);
  const { id } = await createUserRow(ctx.db, name, input.role);
  const password = generatePassword();
  await setPassword(ctx.db, id, password);
  await recordAudit(ctx, { action: "user.create", targetType: "user", targetId: id, details: { name, role: input.role } });
  return { id, name, password };
}

async function requireUser(ctx: ServiceContext, name: string) {
  const user = await findUserRow(ctx.db, name.trim().toLowerCase());
  if (!user || user.deletedAt) throw new AppError("NOT_FOUND", `No user named "${name}"${user ? " (it was deleted)" : ""}`);
  return user;
}

/** Apply a change that may take an admin away; refuses when it would leave no active admin. */
async function applyChange(ctx: ServiceContext, user: { id: string; name: string }, change: AccountChange): Promise<void> {
  const r = await changeAccount(ctx.db, user.id, change);
  if (r.outcome === "gone") throw new AppError("NOT_FOUND", `No user named "${user.name}" (it was deleted)`);
  if (r.outcome === "last-admin") throw new AppError("CONFLICT", `${user.name} is the last active admin; make another admin first`);
}

/** Change a role; the user's sessions end so the new role applies at once. The last active admin cannot be demoted. */
export async function setUserRole(ctx: ServiceContext, input: { name: string; role: Role }): Promise<void> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  if (user.role === input.role) return;
  await applyChange(ctx, user, { role: input.role });
  await recordAudit(ctx, {
    action: "user.role-change",
    targetType: "user",
    targetId: user.id,
    details: { name: user.name, from: user.role, to: input.role },
  });
}

/** One's own account cannot be disabled or deleted from inside it: another admin does that (no lock-out by a slip). */
function refuseSelf(ctx: ServiceContext, user: { id: string; name: string }, verb: string): void {
  if (user.id === ctx.actor.id) throw new AppError("CONFLICT", `You cannot ${verb} your own account (${user.name}); another admin can`);
}

/** Disable: the user's sessions end, their API tokens are revoked, sign-in is refused until enabled again. */
export async function disableUser(ctx: ServiceContext, input: { name: string }): Promise<{ changed: boolean }> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  if (user.disabledAt) return { changed: false };
  refuseSelf(ctx, user, "disable");
  await applyChange(ctx, user, { disabledAt: new Date() });
  await recordAudit(ctx, { action: "user.disable", targetType: "user", targetId: user.id, details: { name: user.name } });
  return { changed: true };
}

/** Enable a disabled account: it may sign in again with its password; revoked API tokens stay revoked. */
export async function enableUser(ctx: ServiceContext, input: { name: string }): Promise<{ changed: boolean }> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  if (!user.disabledAt) return { changed: false };
  await applyChange(ctx, user, { disabledAt: null });
  await recordAudit(ctx, { action: "user.enable", targetType: "user", targetId: user.id, details: { name: user.name } });
  return { changed: true };
}

/**
 * Delete an account. A soft delete, on purpose: labels, label history, datasets, imports and audit events point at
 * the user row, and deleting it would either cascade (losing the team's labels) or leave them without an author;
 * anonymising would make inter-annotator agreement and the audit log unreadable. So the row stays with its name
 * (reserved: a new account of that name would inherit the old one's labels), while everything that lets it act goes:
 * its password, sessions and API tokens. Deletion is final; disable is the reversible way to stop an account.
 */
export async function deleteUser(ctx: ServiceContext, input: { name: string }): Promise<void> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  refuseSelf(ctx, user, "delete");
  await applyChange(ctx, user, { deleted: new Date() });
  await recordAudit(ctx, { action: "user.delete", targetType: "user", targetId: user.id, details: { name: user.name, role: user.role } });
}

/** Replace a user's password with a generated one (returned once) and end their sessions. */
export async function resetPassword(ctx: ServiceContext, input: { name: string }): Promise<{ password: string }> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  // Users made before accounts existed (local mode) get their sign-in name now.
  if (!user.username) await setUsername(ctx.db, user.id, usernameSchema.parse(user.name));
  const password = generatePassword();
  await setPassword(ctx.db, user.id, password);
  await recordAudit(ctx, { action: "user.password-reset", targetType: "user", targetId: user.id, details: { name: user.name } });
  return { password };
}
