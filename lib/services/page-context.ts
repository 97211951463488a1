// The one place pages, layouts and server actions get their acting user. Route handlers use lib/http/route.ts;
// both resolve through lib/services/accounts/authenticate.ts. Nobody signed in (team mode) → the sign-in page; a role
// without `permission` → the forbidden page. Services check again (authorize), so hiding a link is never the guard.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { findRequestContext } from "./accounts/authenticate.ts";
import type { ServiceContext } from "./context.ts";
import { can, type Permission } from "../domain/authz.ts";
import { isAppError } from "../errors.ts";

/**
 * Who a page request is, or why its credentials were refused. A revoked or unknown API token, a non-Bearer
 * Authorization header or a disabled local account is the caller's mistake, not a server error: pages answer it like
 * "nobody signed in" (the sign-in page, which shows `refused`), as route handlers answer it with 401.
 */
async function identify(h: Headers): Promise<{ ctx: ServiceContext | null; refused: string | null }> {
  try {
    return { ctx: await findRequestContext(h), refused: null };
  } catch (e) {
    if (isAppError(e) && e.code === "UNAUTHENTICATED") return { ctx: null, refused: e.message };
    throw e;
  }
}

export async function getPageContext(permission?: Permission): Promise<ServiceContext> {
  const h = await headers();
  const { ctx, refused } = await identify(h);
  const here = h.get("x-reterm-path") ?? "/";
  if (!ctx) redirect(`/sign-in?next=${encodeURIComponent(here)}${refused ? "&refused=1" : ""}`);
  if (permission && !can(ctx.actor, permission)) redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  return ctx;
}

/** For the sign-in page only: the user if someone is signed in, and why the request's credentials were refused. */
export async function findPageContext(): Promise<{ ctx: ServiceContext | null; refused: string | null }> {
  return identify(await headers());
}
