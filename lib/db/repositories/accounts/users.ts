// User rows: who acts (actors for service contexts, tokens and sessions) and accounts as the admin pages and CLI see
// them. Plain DTOs, never password hashes.
import { configOf, type Db } from "../../client.ts";
import { ROLES, type Actor, type Role } from "../../../domain/authz.ts";

export function toActor(u: { id: string; name: string; role: string }): Actor {
  const role = (ROLES as readonly string[]).includes(u.role) ? (u.role as Role) : "viewer";
  return { id: u.id, name: u.name, role };
}

/** An actor, with whether an admin has disabled or deleted the account (neither may act). */
export type AccountActor = Actor & { inactive: "disabled" | "deleted" | null };

const accountSelect = { id: true, name: true, role: true, disabledAt: true, deletedAt: true } as const;
function toAccountActor(u: { id: string; name: string; role: string; disabledAt: Date | null; deletedAt: Date | null }): AccountActor {
  return { ...toActor(u), inactive: u.deletedAt ? "deleted" : u.disabledAt ? "disabled" : null };
}

/** Find a user by name, creating it with `role` when absent. */
export async function ensureUser(db: Db, name: string, role: Role): Promise<Actor> {
  const u = await db.user.upsert({ where: { name }, create: { name, role }, update: {}, select: { id: true, name: true, role: true } });
  return toActor(u);
}

/** Like ensureUser, with the account's state (the local user of local mode may have been disabled by an admin). */
export async function ensureAccount(db: Db, name: string, role: Role): Promise<AccountActor> {
  return toAccountActor(await db.user.upsert({ where: { name }, create: { name, role }, update: {}, select: accountSelect }));
}

export async function findUserByName(db: Db, name: string): Promise<Actor | null> {
  const u = await db.user.findUnique({ where: { name }, select: { id: true, name: true, role: true } });
  return u ? toActor(u) : null;
}

export async function findAccountByName(db: Db, name: string): Promise<AccountActor | null> {
  const u = await db.user.findUnique({ where: { name }, select: accountSelect });
  return u ? toAccountActor(u) : null;
}

export async function findAccountById(db: Db, id: string): Promise<AccountActor | null> {
  const u = await db.user.findUnique({ where: { id }, select: accountSelect });
  return u ? toAccountActor(u) : null;
}

export interface UserSummary {
  id: string;
  name: string;
  role: string;
  hasPassword: boolean;
  activeTokens: number;
  createdAt: Date;
  disabledAt: Date | null;
  deletedAt: Date | null;
}

export interface UserRow {
  id: string;
  name: string;
  role: string;
  username: string | null;
  disabledAt: Date | null;
  deletedAt: Date | null;
}

const rowSelect = { id: true, name: true, role: true, username: true, disabledAt: true, deletedAt: true } as const;

/** An admin who can act: neither disabled nor deleted. */
const activeAdmin = { role: "admin", disabledAt: null, deletedAt: null } as const;

export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await db.user.findMany({
    orderBy: { name: "asc" },
    select: {
      id: true,
      name: true,
      role: true,
      createdAt: true,
      disabledAt: true,
      deletedAt: true,
      accounts: { where: { providerId: "credential" }, select: { id: true } },
      apiTokens: { where: { revokedAt: null }, select: { id: true } },
    },
  });
  return rows.map(({ accounts, apiTokens, ...u }) => ({ ...u, hasPassword: accounts.length > 0, activeTokens: apiTokens.length }));
}

export async function createUserRow(db: Db, name: string, role: Role): Promise<{ id: string }> {
  return db.user.create({ data: { name, username: name, displayUsername: name, role }, select: { id: true } });
}

export async function findUserRow(db: Db, name: string): Promise<UserRow | null> {
  return db.user.findUnique({ where: { name }, select: rowSelect });
}

export async function findUserRowById(db: Db, id: string): Promise<UserRow | null> {
  return db.user.findUnique({ where: { id }, select: rowSelect });
}

/** Give a pre-accounts user (created before sign-in existed) its sign-in name. */
export async function setUsername(db: Db, id: string, name: string): Promise<void> {
  await db.user.update({ where: { id }, data: { username: name, displayUsername: name } });
}

export async function countAdminsWithPassword(db: Db): Promise<number> {
  return db.user.count({ where: { ...activeAdmin, accounts: { some: { providerId: "credential" } } } });
}

/** Whether the database holds any account that can sign in with a password (i.e. it has served team mode). */
export async function hasPasswordAccounts(db: Db): Promise<boolean> {
  return (await db.user.count({ where: { deletedAt: null, accounts: { some: { providerId: "credential" } } } })) > 0;
}

export type AccountChange = { role: Role } | { disabledAt: Date | null } | { deleted: Date };

/**
 * Apply a role change, a disable/enable or a delete, unless it would leave no active admin ("last-admin"). The count
 * and the write share one transaction, and on PostgreSQL an advisory lock serialises every such change: two admins
 * disabling each other at the same moment must not both succeed (under READ COMMITTED each would still count the
 * other as active). SQLite transactions are serialised by its write lock already.
 */
export async function changeAccount(
  db: Db,
  id: string,
  change: AccountChange,
): Promise<{ outcome: "ok" | "last-admin" | "gone"; before: UserRow | null }> {
  return db.$transaction(async (tx) => {
    if (configOf(db).provider === "postgresql") await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(7311001)");
    const before = await tx.user.findUnique({ where: { id }, select: rowSelect });
    if (!before || before.deletedAt) return { outcome: "gone" as const, before };
    const wasActiveAdmin = before.role === "admin" && !before.disabledAt;
    const staysActiveAdmin =
      "role" in change
        ? change.role === "admin" && !before.disabledAt
        : "disabledAt" in change
          ? before.role === "admin" && change.disabledAt === null
          : false;
    if (wasActiveAdmin && !staysActiveAdmin && (await tx.user.count({ where: { ...activeAdmin, id: { not: id } } })) === 0) {
      return { outcome: "last-admin" as const, before };
    }
    if ("deleted" in change) {
      // Sign-in goes with the password: the credential row is removed, not just ignored.
      await tx.account.deleteMany({ where: { userId: id } });
      await tx.user.update({ where: { id }, data: { deletedAt: change.deleted } });
    } else {
      await tx.user.update({ where: { id }, data: change });
    }
    // Every path that takes an account's access away (demotion, disable, delete) ends its sessions; disable and
    // delete also revoke its API tokens (a re-enabled user makes new ones: a revoked token never comes back).
    if (!("disabledAt" in change && change.disabledAt === null)) await tx.session.deleteMany({ where: { userId: id } });
    if ("deleted" in change || ("disabledAt" in change && change.disabledAt)) {
      await tx.apiToken.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: new Date() } });
    }
    return { outcome: "ok" as const, before };
  });
}
