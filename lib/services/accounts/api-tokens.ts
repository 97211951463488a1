// Use cases: every signed-in user manages their own API tokens; admins see and revoke everyone's.
import { randomBytes } from "node:crypto";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { AppError } from "../../errors.ts";
import { can } from "../../domain/authz.ts";
import { sha256 } from "../../domain/hash.ts";
import { createApiToken, findTokenOwner, listTokens, revokeTokenRow, type TokenSummary } from "../../db/repositories/accounts/tokens.ts";
import { findUserRow } from "../../db/repositories/accounts/users.ts";

export type { TokenSummary };

/** `rt_` + 32 random bytes; only its SHA-256 is stored, so a lost token is revoked and replaced, never shown again. */
function newTokenSecret(): string {
  return `rt_${randomBytes(32).toString("base64url")}`;
}

/** Tokens of the acting user, or of everyone for an admin who asks for all. */
export async function listApiTokens(ctx: ServiceContext, opts: { all?: boolean } = {}): Promise<TokenSummary[]> {
  authorize(ctx, "trajectory:read");
  if (opts.all) {
    authorize(ctx, "user:manage");
    return listTokens(ctx.db, {});
  }
  return listTokens(ctx.db, { userId: ctx.actor.id });
}

/** Issue a token acting as its owner (the acting user, or — admins only — another named user). Shown once. */
export async function createApiTokenFor(
  ctx: ServiceContext,
  input: { tokenName: string; userName?: string },
): Promise<{ id: string; token: string; userName: string }> {
  authorize(ctx, "trajectory:read");
  let owner = { id: ctx.actor.id, name: ctx.actor.name };
  if (input.userName && input.userName !== ctx.actor.name) {
    authorize(ctx, "user:manage");
    const u = await findUserRow(ctx.db, input.userName.trim().toLowerCase());
    if (!u || u.deletedAt) throw new AppError("NOT_FOUND", `No user named "${input.userName}"`);
    // Such a token would be refused at every request: say so now instead of handing out a dead secret.
    if (u.disabledAt) throw new AppError("CONFLICT", `${u.name} is disabled; enable the account first`);
    owner = u;
  }
  const token = newTokenSecret();
  const { id } = await createApiToken(ctx.db, owner.id, input.tokenName, sha256(token));
  await recordAudit(ctx, {
    action: "token.create",
    targetType: "api-token",
    targetId: id,
    details: { owner: owner.name, name: input.tokenName },
  });
  return { id, token, userName: owner.name };
}

/** Revoke a token: its owner or an admin. Revoking twice is a no-op; someone else's token is 404 (not 403: no probing). */
export async function revokeApiToken(ctx: ServiceContext, id: string): Promise<{ revoked: boolean }> {
  authorize(ctx, "trajectory:read");
  const t = await findTokenOwner(ctx.db, id);
  if (!t || (t.userId !== ctx.actor.id && !can(ctx.actor, "user:manage"))) throw new AppError("NOT_FOUND", `No API token ${id}`);
  const revoked = await revokeTokenRow(ctx.db, id);
  if (revoked) await recordAudit(ctx, { action: "token.revoke", targetType: "api-token", targetId: id });
  return { revoked };
}
