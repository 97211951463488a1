// The one place pages, layouts and server actions get their acting user. Route handlers use lib/http/route.ts
// (which resolves tokens and sessions from the request); everything rendered by the App Router calls this.
// `permission`, when given, is checked here so a page that needs more than read access refuses before it loads.
import "server-only";
import { authorize, getLocalContext, type ServiceContext } from "./context.ts";
import type { Permission } from "../domain/authz.ts";

export async function getPageContext(permission?: Permission): Promise<ServiceContext> {
  const ctx = await getLocalContext();
  if (permission) authorize(ctx, permission);
  return ctx;
}
