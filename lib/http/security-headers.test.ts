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

  it("HSTS and upgrade-insecure-requests when RETERM_BASE_URL is https, even if the request arrived as plain http", () => {
    const behindTls = withSecurityHeaders(new NextRequest("http://10.0.0.7:3000/trajectories"), "https://reterm.lab.example");
    expect(behindTls.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(behindTls.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const plain = withSecurityHeaders(new NextRequest("http://127.0.0.1:3000/trajectories"), "http://127.0.0.1:3000");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    expect(plain.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
    const unset = withSecurityHeaders(new NextRequest("http://127.0.0.1:3000/"), undefined);
    expect(unset.headers.get("strict-transport-security")).toBeNull();
    expect(withSecurityHeaders(new NextRequest("https://reterm.lab.example/"), undefined).headers.get("strict-transport-security")).toBe(
      "max-age=31536000",
    );
  });
});
