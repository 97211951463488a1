// Use cases: create accounts, change roles, reset passwords, list users (admins; the CLI acts as the local admin).
import { randomBytes } from "node:crypto";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { usernameSchema } from "../../domain/accounts.ts";
import type { Role } from "../../domain/authz.ts";
import { countAdmins, createUserRow, findUserRow, listUsers as listUserRows, setUsername, updateUserRole, type UserSummary } from "../../db/repositories/accounts/users.ts";
import { endSessions, setPassword } from "../../db/auth/credentials.ts";

export type { UserSummary };

/** 20 random characters from a URL-safe alphabet (120 bits): shown once, never stored in clear. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

export async function listUsers(ctx: ServiceContext): Promise<UserSummary[]> {
  authorize(ctx, "user:manage");
  return listUserRows(ctx.db);
}

/** Create an account with a generated password (returned once). A name already taken is a 409. */
export async function createUser(ctx: ServiceContext, input: { name: string; role: Role }): Promise<{ id: string; name: string; password: string }> {
  authorize(ctx, "user:manage");
  const name = usernameSchema.parse(input.name);
  if (await findUserRow(ctx.db, name)) throw new AppError("CONFLICT", `A user named "${name}" already exists`);
  const { id } = await createUserRow(ctx.db, name, input.role);
  const password = generatePassword();
  await setPassword(ctx.db, id, password);
  await recordAudit(ctx, { action: "user.create", targetType: "user", targetId: id, details: { name, role: input.role } });
  return { id, name, password };
}

async function requireUser(ctx: ServiceContext, name: string) {
  const user = await findUserRow(ctx.db, name.trim().toLowerCase());
  if (!user) throw new AppError("NOT_FOUND", `No user named "${name}"`);
  return user;
}

/** Change a role; the user's sessions end so the new role applies at once. The last admin cannot be demoted. */
export async function setUserRole(ctx: ServiceContext, input: { name: string; role: Role }): Promise<void> {
  authorize(ctx, "user:manage");
  const user = await requireUser(ctx, input.name);
  if (user.role === input.role) return;
  if (user.role === "admin" && (await countAdmins(ctx.db)) <= 1) {
    throw new AppError("CONFLICT", `${user.name} is the only admin; make another admin first`);
  }
  await updateUserRole(ctx.db, user.id, input.role);
  await endSessions(ctx.db, user.id);
  await recordAudit(ctx, { action: "user.role-change", targetType: "user", targetId: user.id, details: { name: user.name, from: user.role, to: input.role } });
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
