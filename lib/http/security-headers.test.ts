import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { contentSecurityPolicy, withSecurityHeaders } from "./security-headers.ts";

describe("security headers", () => {
  it("scripts only with the request's nonce; no framing; no eval in production", () => {
    const csp = contentSecurityPolicy("abc123", { dev: false, https: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("n", { dev: false, https: true })).toContain("upgrade-insecure-requests");
  });
  it("a fresh nonce per request, passed to the page and matching the response header", () => {
    const a = withSecurityHeaders(new NextRequest("http://127.0.0.1:3000/trajectories?page=2"));
    const b = withSecurityHeaders(new NextRequest("http://127.0.0.1:3000/trajectories"));
    const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
    expect(nonceOf(a.headers.get("content-security-policy"))).toBeTruthy();
    expect(nonceOf(a.headers.get("content-security-policy"))).not.toBe(nonceOf(b.headers.get("content-security-policy")));
    // NextResponse.next({ request: { headers } }) forwards request headers as x-middleware-request-* overrides.
    expect(a.headers.get("x-middleware-request-x-nonce")).toBe(nonceOf(a.headers.get("content-security-policy")));
    expect(a.headers.get("x-middleware-request-x-reterm-path")).toBe("/trajectories?page=2");
  });
});
