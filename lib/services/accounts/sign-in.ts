// Use cases: sign in (throttled, audited), sign out, change one's own password.
import { getDb, type Db } from "../../db/client.ts";
import { changeOwnPassword, signInWithPassword, signOutSession, verifyPassword } from "../../db/auth/credentials.ts";
import { findUserRow } from "../../db/repositories/accounts/users.ts";
import { AppError } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { currentAuthMode } from "./authenticate.ts";
import { clientAddress } from "./client-address.ts";
import type { ServiceContext } from "../context.ts";
import { recordSuccessfulSignIn, signInRetryAfter, takeSignInAttempt } from "./sign-in-throttle.ts";

/** On success, `cookies` are the Set-Cookie values (server actions set them through nextCookies; other callers send them). */
export type SignInOutcome =
  | { ok: true; cookies: string[] }
  | { ok: false; reason: "invalid" | "disabled" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Check a name and password; on success a session cookie is set (server actions) and the sign-in is audited. */
export async function signIn(
  input: { username: string; password: string },
  requestHeaders: Headers,
  db: Db = getDb(),
): Promise<SignInOutcome> {
  if (currentAuthMode() !== "team") throw new AppError("CONFLICT", "Local mode: no sign-in needed (set RETERM_AUTH=on for accounts)");
  const name = input.username.trim().toLowerCase();
  const address = clientAddress(requestHeaders);
  const wait = (await signInRetryAfter(name, address, db)) || (await takeSignInAttempt(name, address, db));
  if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  const user = await findUserRow(db, name);
  // A disabled account opens no session. Only someone who knows its password learns that it is disabled (anyone else
  // gets the usual "wrong name or password"), so the message reveals nothing to a guesser.
  if (user?.disabledAt && !user.deletedAt && (await verifyPassword(db, user.id, input.password))) {
    await recordAudit(
      { db, actor: { id: user.id, name: user.name, role: "viewer" } },
      { action: "auth.sign-in-failed", targetType: "user", targetId: user.id, ipAddress: address, details: { reason: "disabled" } },
    );
    return { ok: false, reason: "disabled" };
  }
  const result = user?.disabledAt ? ({ ok: false } as const) : await signInWithPassword(db, name, input.password, requestHeaders, address);
  if (!result.ok) {
    await recordAudit(
      { db, actor: { id: user?.id ?? "", name: user?.name ?? name, role: "viewer" } },
      { action: "auth.sign-in-failed", targetType: "user", targetId: user?.id, ipAddress: address },
    );
    return { ok: false, reason: "invalid" };
  }
  await recordSuccessfulSignIn(name, address, db);
  await recordAudit(
    { db, actor: { id: result.userId, name, role: "viewer" } },
    { action: "auth.sign-in", targetType: "user", targetId: result.userId, ipAddress: address },
  );
  return { ok: true, cookies: result.headers.getSetCookie() };
}

export async function signOut(ctx: ServiceContext, requestHeaders: Headers): Promise<void> {
  await signOutSession(ctx.db, requestHeaders);
  await recordAudit(ctx, { action: "auth.sign-out", targetType: "user", targetId: ctx.actor.id, ipAddress: clientAddress(requestHeaders) });
}

export async function changePassword(
  ctx: ServiceContext,
  input: { currentPassword: string; newPassword: string },
  requestHeaders: Headers,
): Promise<boolean> {
  if (currentAuthMode() !== "team") throw new AppError("CONFLICT", "Local mode has no passwords");
  const ok = await changeOwnPassword(ctx.db, requestHeaders, input.currentPassword, input.newPassword);
  if (ok) await recordAudit(ctx, { action: "auth.password-change", targetType: "user", targetId: ctx.actor.id });
  return ok;
}
