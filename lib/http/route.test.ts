// The route() wrapper's answer headers: every answer (success or error) is no-store, and carries HSTS when
// RETERM_BASE_URL is https although the request reached the server as plain http (TLS ended at a proxy).
process.env.RETERM_BASE_URL = "https://reterm.lab.example";
import { describe, expect, it, vi } from "vitest";
import { NextRequest, NextResponse } from "next/server";
import { AppError } from "../errors.ts";

vi.mock("../services/accounts/authenticate.ts", () => ({
  resolveRequestContext: async (headers: Headers) => {
    if (!headers.get("authorization")) throw new AppError("UNAUTHENTICATED", "Sign in");
    return { db: null, actor: { id: "u1", name: "alice", role: "admin" } };
  },
}));
const { route, errorResponse } = await import("./route.ts");

const call = (handler: ReturnType<typeof route>, headers: Record<string, string> = {}) =>
  handler(new NextRequest("http://10.0.0.7:3000/api/v1/things", { headers: { host: "localhost", ...headers } }), {
    params: Promise.resolve({}),
  });

describe("route() answer headers", () => {
  it("a handler's answer is no-store and HSTS, even when the handler set its own caching", async () => {
    const res = await call(
      route(async () => NextResponse.json({ ok: true }, { headers: { "cache-control": "public, max-age=600" } })),
      { authorization: "Bearer x" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("errors too (401 without credentials, 500 from a failing handler)", async () => {
    const unauth = await call(route(async () => NextResponse.json({})));
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("cache-control")).toBe("no-store");
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failed = await call(
      route(async () => {
        throw new Error("boom");
      }),
      { authorization: "Bearer x" },
    );
    expect(failed.status).toBe(500);
    expect(failed.headers.get("cache-control")).toBe("no-store");
  });

  it("a response with immutable headers is copied, not lost", async () => {
    const res = await call(
      route(async () => Response.redirect("http://localhost/elsewhere", 303)),
      { authorization: "Bearer x" },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://localhost/elsewhere");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a rate-limited answer says when to retry (Retry-After)", async () => {
    const res = errorResponse(new AppError("RATE_LIMITED", "slow down", { retryAfter: 17 }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("17");
    expect(errorResponse(new AppError("CONFLICT", "x")).headers.get("retry-after")).toBeNull();
  });
});
