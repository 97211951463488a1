// Runs before every page and API request (Next.js 16 proxy). Security headers live in lib/http/security-headers.ts
// so other request checks can be joined here with one call each.
import type { NextRequest } from "next/server";
import { withSecurityHeaders } from "./lib/http/security-headers";

export function proxy(request: NextRequest) {
  return withSecurityHeaders(request);
}

export const config = {
  // Static assets need no nonce; prefetches reuse the page's.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "next-router-prefetch" }, { type: "header", key: "purpose", value: "prefetch" }] }],
};
