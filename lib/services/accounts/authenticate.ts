// Who is calling — the one place a request's user is resolved (route() for handlers, getPageContext for pages and
// server actions both land here): an API token (Authorization: Bearer rt_…) names its user; otherwise the session
// cookie; otherwise, in local mode only, the local admin (RETERM_USER). Team mode without either is UNAUTHENTICATED.
import { getDb, type Db } from "../../db/client.ts";
import { findActorByTokenHash } from "../../db/repositories/accounts/tokens.ts";
import { findSessionActor } from "../../db/auth/credentials.ts";
import { ensureUser } from "../../db/repositories/accounts/users.ts";
import { sha256 } from "../../domain/hash.ts";
import { authMode, getEnv } from "../../env.ts";
import { takeApiRequest } from "./api-rate-limit.ts";
import { AppError } from "../../errors.ts";
import { getLocalContext, type ServiceContext } from "../context.ts";

export function currentAuthMode(): "local" | "team" {
  return authMode(getEnv());
}

/** The acting user of a request, or null when nobody is signed in (team mode). Bad or revoked tokens throw 401. */
export async function findRequestContext(headers: Headers, db: Db = getDb()): Promise<ServiceContext | null> {
  const auth = headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) throw new AppError("UNAUTHENTICATED", "Authorization header must be 'Bearer <token>'");
    const hash = sha256(m[1]!);
    const actor = await findActorByTokenHash(db, hash);
    if (!actor) throw new AppError("UNAUTHENTICATED", "Unknown or revoked API token");
    await takeApiRequest(db, hash);
    return { db, actor };
  }
  if (currentAuthMode() === "local")
    return db === getDb() ? getLocalContext() : { db, actor: await ensureUser(db, getEnv().RETERM_USER, "admin") };
  const actor = await findSessionActor(db, headers);
  return actor ? { db, actor } : null;
}

export async function resolveRequestContext(headers: Headers, db: Db = getDb()): Promise<ServiceContext> {
  const ctx = await findRequestContext(headers, db);
  if (!ctx) throw new AppError("UNAUTHENTICATED", "Sign in or send an API token (Authorization: Bearer rt_…)");
  return ctx;
}
