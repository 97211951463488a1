import type { Db } from "../client.ts";
import type { Actor, Role } from "../../domain/authz.ts";
import { ROLES } from "../../domain/authz.ts";

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
