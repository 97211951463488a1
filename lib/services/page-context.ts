// The one place pages, layouts and server actions get their acting user. Route handlers use lib/http/route.ts;
// both resolve through lib/services/authenticate.ts. Nobody signed in (team mode) → the sign-in page; a role
// without `permission` → the forbidden page. Services check again (authorize), so hiding a link is never the guard.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { findRequestContext } from "./authenticate.ts";
import type { ServiceContext } from "./context.ts";
import { can, type Permission } from "../domain/authz.ts";

export async function getPageContext(permission?: Permission): Promise<ServiceContext> {
  const h = await headers();
  const ctx = await findRequestContext(h);
  const here = h.get("x-reterm-path") ?? "/";
  if (!ctx) redirect(`/sign-in?next=${encodeURIComponent(here)}`);
  if (permission && !can(ctx.actor, permission)) redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  return ctx;
}

/** For the sign-in page only: the user if someone is signed in, without redirecting. */
export async function findPageContext(): Promise<ServiceContext | null> {
  return findRequestContext(await headers());
}
