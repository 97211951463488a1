// POST /api/v1/trajectories through its route handler: token authentication, roles, batches and idempotency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { createUser } from "../../lib/services/accounts/manage-users.ts";
import { createApiTokenFor } from "../../lib/services/accounts/api-tokens.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let t: TestDatabase;
let post: Handler;
let researcherToken: string;
let viewerToken: string;
const batch = [...generateTrajectories({ count: 6, seed: 77 })];

async function send(body: string, headers: Record<string, string>) {
  const res = await post(new NextRequest("http://localhost/api/v1/trajectories", { method: "POST", body, headers }), {
    params: Promise.resolve({}),
  });
  return { status: res.status, body: await res.json() };
}

/** A user with the role and an API token of theirs, issued by the admin as the tokens page and CLI do. */
async function tokenFor(name: string, role: "researcher" | "viewer"): Promise<string> {
  await createUser(t.ctx, { name, role });
  return (await createApiTokenFor(t.ctx, { tokenName: "ci", userName: name })).token;
}

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  // Before the users: account creation goes through the auth library, bound to the app's database client.
  process.env.DATABASE_URL = t.config.url;
  researcherToken = await tokenFor("pipeline", "researcher");
  viewerToken = await tokenFor("watcher", "viewer");
  post = (await import("../../app/api/v1/trajectories/route.ts")).POST;
});
afterAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  await getDb().$disconnect();
  await t?.drop();
});

describe("POST /api/v1/trajectories", () => {
  it("imports an NDJSON batch for a researcher token, links its attempts, and is idempotent", async () => {
    const ndjson = batch.map((x) => JSON.stringify(x)).join("\n");
    const first = await send(ndjson, { authorization: `Bearer ${researcherToken}`, "content-type": "application/x-ndjson" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ imported: 6, duplicates: 0, failed: 0 });
    const again = await send(ndjson, { authorization: `Bearer ${researcherToken}`, "content-type": "application/x-ndjson" });
    expect(again.body).toMatchObject({ imported: 0, duplicates: 6 });
    const attempts = batch.filter((x) => x.fork).length;
    expect(await t.db.trajectory.count({ where: { parentId: { not: null } } })).toBe(attempts);
    const job = await t.db.importJob.findFirstOrThrow({ where: { origin: "api" }, include: { user: true } });
    expect(job.user?.name).toBe("pipeline");
  });

  it("rejects unknown tokens (401), viewers (403) and bodies that are not JSON (400)", async () => {
    const one = JSON.stringify(batch[0]);
    expect((await send(one, { authorization: "Bearer rt_nope", "content-type": "application/json" })).status).toBe(401);
    const denied = await send(one, { authorization: `Bearer ${viewerToken}`, "content-type": "application/json" });
    expect(denied).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    const bad = await send("{nope", { authorization: `Bearer ${researcherToken}`, "content-type": "application/json" });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "INVALID_INPUT" } } });
  });
});
