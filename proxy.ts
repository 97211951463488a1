// Runs before every request is routed (Next 16 proxy, Node runtime): Host allow-list, method and path sanity, and the
// Origin check for state-changing requests — all in lib/http/request-guard.ts, so this file only wires it.
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { checkRequest } from "@/lib/http/request-guard";

export function proxy(req: NextRequest) {
  const verdict = checkRequest({ method: req.method, url: req.url, headers: req.headers }, getEnv().RETERM_ALLOWED_HOSTS);
  if (!verdict) return NextResponse.next();
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (verdict.status === 405) headers.allow = "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE";
  return NextResponse.json({ error: { code: verdict.code, message: verdict.message } }, { status: verdict.status, headers });
}

export const config = {
  // Everything, static assets included: a rebinding page must not even get the scripts.
  matcher: "/:path*",
};
