// Security headers for every response, applied by proxy.ts: a per-request nonce CSP (Next.js puts the nonce on its
// own scripts when it finds the policy on the request), no framing, no MIME sniffing, no referrer to other sites.
// Styles allow 'unsafe-inline': xterm's DOM renderer writes <style> elements and the charts set style attributes at
// run time, which nonces cannot cover; scripts — the XSS vector — stay nonce-only.
// HTTPS is decided by RETERM_BASE_URL as well as by the request: behind a proxy that ends TLS the server itself sees
// plain http, and the public URL is the operator's word on how browsers reach it.
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "../env.ts";

/** One year; no includeSubDomains or preload: the dashboard does not own the rest of its domain. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

/** Whether browsers reach the dashboard over HTTPS: the public URL says so, or the request itself came over TLS. */
export function servedOverHttps(baseUrl: string | undefined, requestProtocol?: string): boolean {
  return (baseUrl ?? "").toLowerCase().startsWith("https:") || requestProtocol === "https:";
}

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
export function withSecurityHeaders(request: NextRequest, baseUrl: string | undefined = getEnv().RETERM_BASE_URL): NextResponse {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = servedOverHttps(baseUrl, request.nextUrl.protocol);
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
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
  if (https) response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  return response;
}
