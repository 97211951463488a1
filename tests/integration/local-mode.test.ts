// Local mode (loopback, RETERM_AUTH unset): no sign-in, the person at the machine is the local admin — but a page on
// another site still cannot make the browser write (CSRF), since that admin is an ambient credential.
delete process.env.RETERM_AUTH;
delete process.env.HOST;
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { findRequestContext, currentAuthMode } from "../../lib/services/accounts/authenticate.ts";

let t: TestDatabase;
type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let post: Handler;

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.config.url;
  post = (await import("../../app/api/v1/trajectories/route.ts")).POST;
});
afterAll(async () => {
  const { closeDatabase } = await import("../../lib/services/system/setup-database.ts");
  await closeDatabase();
  await t?.drop();
});

describe("local mode", () => {
  it("acts as the local admin without any sign-in", async () => {
    expect(currentAuthMode()).toBe("local");
    const ctx = await findRequestContext(new Headers());
    expect(ctx?.actor).toMatchObject({ name: "local-admin", role: "admin" });
  });

  it("refuses a cross-site POST (CSRF) and accepts the same request from our own origin", async () => {
    const body = "{nope";
    const send = (headers: Record<string, string>) =>
      post(
        new NextRequest("http://127.0.0.1:3000/api/v1/trajectories", {
          method: "POST",
          body,
          headers: { host: "127.0.0.1:3000", "content-type": "application/json", ...headers },
        }),
        { params: Promise.resolve({}) },
      );
    const evil = await send({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.message).toMatch(/cross-site request refused/);
    // Same origin gets past the guard and fails only on its (deliberately broken) body.
    expect((await send({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" })).status).toBe(400);
  });
});
