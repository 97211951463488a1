// API tokens: issued and resolved by their hash (never shown again), listed in the UI and CLI by what identifies a
// token to its owner (never the hash).
import type { Db } from "../../client.ts";
import type { Actor } from "../../../domain/authz.ts";
import { toActor } from "./users.ts";

export async function findActorByTokenHash(db: Db, tokenHash: string): Promise<Actor | null> {
  const token = await db.apiToken.findUnique({ where: { tokenHash }, include: { user: true } });
  // Disabling revokes a user's tokens; the user check also covers a token revoked by nothing else (defence in depth).
  if (!token || token.revokedAt || token.user.disabledAt || token.user.deletedAt) return null;
  // "Last used" to the minute is enough, and spares a pipeline's every request a write (on SQLite, a lock).
  const now = new Date();
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  }
  return toActor(token.user);
}

export async function createApiToken(db: Db, userId: string, name: string, tokenHash: string): Promise<{ id: string }> {
  return db.apiToken.create({ data: { userId, name, tokenHash }, select: { id: true } });
}

export interface TokenSummary {
  id: string;
  name: string;
  userName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export async function listTokens(db: Db, filter: { userId?: string }): Promise<TokenSummary[]> {
  const rows = await db.apiToken.findMany({
    where: filter.userId ? { userId: filter.userId } : {},
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true, user: { select: { name: true } } },
  });
  return rows.map(({ user, ...t }) => ({ ...t, userName: user.name }));
}

export async function findTokenOwner(db: Db, id: string): Promise<{ userId: string; revokedAt: Date | null } | null> {
  return db.apiToken.findUnique({ where: { id }, select: { userId: true, revokedAt: true } });
}

/** Revoke once: a second revoke is a no-op that reports false. */
export async function revokeTokenRow(db: Db, id: string): Promise<boolean> {
  const r = await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count === 1;
}
