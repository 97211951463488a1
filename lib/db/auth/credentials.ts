// Passwords and sessions through better-auth's own internals: the library hashes (scrypt) and verifies; we never
// see or store a password in any other form.
import type { Db } from "../client.ts";
import { CLIENT_ADDRESS_HEADER, getAuthFor } from "./better-auth.ts";
import type { Actor } from "../../domain/authz.ts";
import { toActor } from "../repositories/accounts/users.ts";

/** Set (or replace) a user's password and end all of their sessions. */
export async function setPassword(db: Db, userId: string, password: string): Promise<void> {
  const ctx = await getAuthFor(db).$context;
  const hash = await ctx.password.hash(password);
  const existing = await ctx.internalAdapter.findCredentialAccount(userId);
  if (existing) await ctx.internalAdapter.updatePassword(userId, hash);
  else await ctx.internalAdapter.linkAccount({ userId, accountId: userId, providerId: "credential", password: hash });
  await ctx.internalAdapter.deleteUserSessions(userId);
}

/** Check a user's password without opening a session (so a disabled account learns nothing without it). */
export async function verifyPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const ctx = await getAuthFor(db).$context;
  const account = await ctx.internalAdapter.findCredentialAccount(userId);
  if (!account?.password) return false;
  return ctx.password.verify({ hash: account.password, password });
}

/** The signed-in user of a request (session cookie), or null. Reads the role from the user row on every call. */
export async function findSessionActor(db: Db, headers: Headers): Promise<Actor | null> {
  const session = await getAuthFor(db).api.getSession({ headers: forAuth(headers), query: { disableCookieCache: true } });
  if (!session) return null;
  const u = await db.user.findUnique({
    where: { id: session.user.id },
    select: { id: true, name: true, role: true, disabledAt: true, deletedAt: true },
  });
  // Disabling ends a user's sessions; checking here as well shuts any session that raced the disable.
  if (!u || u.disabledAt || u.deletedAt) return null;
  return toActor(u);
}

/**
 * What better-auth gets to see of a request: the session cookie and what it records with a session — the user agent
 * and the client address the caller resolved (lib/services/accounts/client-address.ts), never the request's own forwarding
 * headers, which a client can write. Not Origin: server actions are already checked by Next.js (Origin vs Host) and
 * route handlers by lib/http/request-guard.ts, and better-auth's own origin check would compare against one
 * configured base URL, which a shared server reached under several names cannot give.
 */
function forAuth(h: Headers, clientAddress?: string): Headers {
  const out = new Headers();
  for (const k of ["cookie", "user-agent"]) {
    const v = h.get(k);
    if (v !== null) out.set(k, v);
  }
  if (clientAddress) out.set(CLIENT_ADDRESS_HEADER, clientAddress);
  return out;
}

export type SignInResult = { ok: true; userId: string; headers: Headers } | { ok: false };

/**
 * Check a name + password and open a session, recording `clientAddress` with it; `headers` carries the Set-Cookie
 * (nextCookies also sets it in actions).
 */
export async function signInWithPassword(
  db: Db,
  username: string,
  password: string,
  requestHeaders: Headers,
  clientAddress: string,
): Promise<SignInResult> {
  try {
    const { headers, response } = await getAuthFor(db).api.signInUsername({
      body: { username, password },
      headers: forAuth(requestHeaders, clientAddress),
      returnHeaders: true,
    });
    if (!response) return { ok: false };
    return { ok: true, userId: response.user.id, headers };
  } catch (e) {
    // better-auth answers a wrong name or password with an APIError (401); anything else is a real failure.
    if (e && typeof e === "object" && "statusCode" in e && (e as { statusCode: number }).statusCode === 401) return { ok: false };
    throw e;
  }
}

export async function signOutSession(db: Db, requestHeaders: Headers): Promise<void> {
  await getAuthFor(db).api.signOut({ headers: forAuth(requestHeaders) });
}

/** Verify the current password and set a new one (better-auth's changePassword); other sessions are ended. */
export async function changeOwnPassword(db: Db, requestHeaders: Headers, currentPassword: string, newPassword: string): Promise<boolean> {
  try {
    await getAuthFor(db).api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers: forAuth(requestHeaders),
    });
    return true;
  } catch (e) {
    if (e && typeof e === "object" && "statusCode" in e && [400, 401].includes((e as { statusCode: number }).statusCode)) return false;
    throw e;
  }
}
