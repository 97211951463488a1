// Security headers for every response, applied by proxy.ts: a per-request nonce CSP (Next.js puts the nonce on its
// own scripts when it finds the policy on the request), no framing, no MIME sniffing, no referrer to other sites.
// Styles allow 'unsafe-inline': xterm's DOM renderer writes <style> elements and the charts set style attributes at
// run time, which nonces cannot cover; scripts — the XSS vector — stay nonce-only.
import { NextResponse, type NextRequest } from "next/server";

export function contentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Build the pass-through response with headers set; the nonce and the path travel to pages as request headers. */
export function withSecurityHeaders(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https: request.nextUrl.protocol === "https:" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  // getPageContext sends an anonymous visitor to /sign-in?next=<this path>.
  requestHeaders.set("x-reterm-path", request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  // nosniff, Referrer-Policy and X-Frame-Options come from next.config.ts, which also covers static assets.
  response.headers.set("Cross-Origin-Opener-Policy", "same-origin");
  response.headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  return response;
}
