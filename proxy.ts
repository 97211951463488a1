// Runs before page requests are routed (Next 16 proxy, Node runtime): Host allow-list, method and path sanity, and the
// Origin check for state-changing requests (server actions) — all in lib/http/request-guard.ts. API routes are left
// out of the matcher on purpose: when a proxy matches a request, Next clones and buffers its body in memory (and cuts
// it at proxyClientMaxBodySize, 10 MB), which would break large uploads and the streamed size caps. The route()
// wrapper applies the same guard to every API route instead.
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { checkRequest, guardHeaders } from "@/lib/http/request-guard";

export function proxy(req: NextRequest) {
  const verdict = checkRequest({ method: req.method, url: req.url, headers: req.headers }, getEnv().RETERM_ALLOWED_HOSTS);
  if (!verdict) return NextResponse.next();
  return NextResponse.json({ error: { code: verdict.code, message: verdict.message } }, { status: verdict.status, headers: guardHeaders(verdict) });
}

export const config = {
  // Everything but /api (see above), static assets included: a rebinding page must not even get the scripts.
  matcher: "/((?!api/).*)",
};
