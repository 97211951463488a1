// API tokens as listed in the UI and CLI: never the hash, only what identifies a token to its owner.
import type { Db } from "../../client.ts";

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
