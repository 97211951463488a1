// Runs before page requests are routed (Next 16 proxy, Node runtime). Two steps, each in its own module:
// 1. the request guard (lib/http/request-guard.ts): Host allow-list, method and path sanity, and the Origin check for
//    state-changing requests (server actions);
// 2. security headers (lib/http/security-headers.ts): a per-request nonce CSP and the headers next.config.ts can't set.
// API routes are left out of the matcher on purpose: when a proxy matches a request, Next clones and buffers its body
// in memory (and cuts it at proxyClientMaxBodySize, 10 MB), which would break large uploads and the streamed size
// caps. The route() wrapper applies the same guard to every API route instead.
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { checkRequest, guardHeaders } from "@/lib/http/request-guard";
import { withSecurityHeaders } from "@/lib/http/security-headers";

export function proxy(req: NextRequest) {
  const verdict = checkRequest({ method: req.method, url: req.url, headers: req.headers }, getEnv().RETERM_ALLOWED_HOSTS);
  if (verdict)
    return NextResponse.json(
      { error: { code: verdict.code, message: verdict.message } },
      { status: verdict.status, headers: guardHeaders(verdict) },
    );
  // Static assets need no nonce; prefetches reuse the page's.
  const path = req.nextUrl.pathname;
  const isPrefetch = req.headers.has("next-router-prefetch") || req.headers.get("purpose") === "prefetch";
  if (path.startsWith("/_next/static") || path.startsWith("/_next/image") || isPrefetch) return NextResponse.next();
  return withSecurityHeaders(req);
}

export const config = {
  // Everything but /api (see above), static assets included: a rebinding page must not even get the scripts.
  matcher: "/((?!api/).*)",
};
