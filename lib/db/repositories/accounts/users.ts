// Accounts as the admin pages and CLI see them: plain DTOs, never password hashes.
import type { Db } from "../../client.ts";
import type { Role } from "../../../domain/authz.ts";

export interface UserSummary {
  id: string;
  name: string;
  role: string;
  hasPassword: boolean;
  activeTokens: number;
  createdAt: Date;
}

export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await db.user.findMany({
    orderBy: { name: "asc" },
    select: {
      id: true, name: true, role: true, createdAt: true,
      accounts: { where: { providerId: "credential" }, select: { id: true } },
      apiTokens: { where: { revokedAt: null }, select: { id: true } },
    },
  });
  return rows.map((u) => ({ id: u.id, name: u.name, role: u.role, createdAt: u.createdAt, hasPassword: u.accounts.length > 0, activeTokens: u.apiTokens.length }));
}

export async function createUserRow(db: Db, name: string, role: Role): Promise<{ id: string }> {
  return db.user.create({ data: { name, username: name, displayUsername: name, role }, select: { id: true } });
}

export async function findUserRow(db: Db, name: string): Promise<{ id: string; name: string; role: string; username: string | null } | null> {
  return db.user.findUnique({ where: { name }, select: { id: true, name: true, role: true, username: true } });
}

/** Give a pre-accounts user (created before sign-in existed) its sign-in name. */
export async function setUsername(db: Db, id: string, name: string): Promise<void> {
  await db.user.update({ where: { id }, data: { username: name, displayUsername: name } });
}

export async function updateUserRole(db: Db, id: string, role: Role): Promise<void> {
  await db.user.update({ where: { id }, data: { role } });
}

export async function countAdminsWithPassword(db: Db): Promise<number> {
  return db.user.count({ where: { role: "admin", accounts: { some: { providerId: "credential" } } } });
}

export async function countAdmins(db: Db): Promise<number> {
  return db.user.count({ where: { role: "admin" } });
}
