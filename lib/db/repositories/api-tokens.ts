import type { Db } from "../client.ts";
import { ROLES, type Actor, type Role } from "../../domain/authz.ts";

export async function findActorByTokenHash(db: Db, tokenHash: string): Promise<Actor | null> {
  const token = await db.apiToken.findUnique({ where: { tokenHash }, include: { user: true } });
  if (!token || token.revokedAt) return null;
  // "Last used" to the minute is enough, and spares a pipeline's every request a write (on SQLite, a lock).
  const now = new Date();
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  }
  const role: Role = (ROLES as readonly string[]).includes(token.user.role) ? (token.user.role as Role) : "viewer";
  return { id: token.user.id, name: token.user.name, role };
}

export async function createApiToken(db: Db, userId: string, name: string, tokenHash: string): Promise<{ id: string }> {
  return db.apiToken.create({ data: { userId, name, tokenHash }, select: { id: true } });
}
