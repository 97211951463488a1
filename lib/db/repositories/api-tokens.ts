import type { Db } from "../client.ts";
import type { Actor } from "../../domain/authz.ts";
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
