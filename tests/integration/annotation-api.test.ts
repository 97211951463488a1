// /api/v1/annotations through its route handlers (SQLite: the handlers are provider-neutral; the services behind
// them run on both databases in annotation.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let t: TestDatabase;
let api: { GET: Handler; POST: Handler; PATCH: Handler; DELETE: Handler };
let trajectoryId: string;

async function call(method: keyof typeof api, query: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const init =
    body === undefined
      ? { method }
      : { method, body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } };
  const res = await api[method](new NextRequest(`http://localhost/api/v1/annotations${query}`, init), { params: Promise.resolve({}) });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}
const errorOf = (body: unknown) => z.object({ error: z.object({ code: z.string(), message: z.string() }) }).parse(body).error;
const label = z.object({ id: z.string(), version: z.number(), value: z.string(), annotatorName: z.string() });

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  await seedDemo(t.ctx, { count: 6, seed: 3 });
  trajectoryId = (await t.db.trajectory.findFirstOrThrow({ where: { parentId: null }, select: { id: true } })).id;
  process.env.DATABASE_URL = t.config.url;
  process.env.RETERM_USER = "api-labeller";
  api = (await import("../../app/api/v1/annotations/route.ts")) as unknown as typeof api;
}, 120_000);
afterAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  await getDb().$disconnect();
  await t?.drop();
});

describe("/api/v1/annotations", () => {
  it("creates (201), lists, changes at a version (409 for a stale one) and deletes (204)", async () => {
    const created = await call("POST", "", {
      trajectory: trajectoryId,
      schema: "error-category",
      value: "hang",
      target: { steps: [0, 1] },
    });
    expect(created.status).toBe(201);
    const l = label.parse(created.body);
    expect(l).toMatchObject({ version: 1, value: "hang", annotatorName: "api-labeller" });
    const list = z.object({ labels: z.array(label) }).parse((await call("GET", `?trajectory=${trajectoryId}`)).body);
    expect(list.labels.map((x) => x.id)).toEqual([l.id]);
    const changed = await call("PATCH", "", { id: l.id, version: 1, value: "timeout" });
    expect(changed.status).toBe(200);
    expect(label.parse(changed.body).version).toBe(2);
    const stale = await call("PATCH", "", { id: l.id, version: 1, value: "command-error" });
    expect(stale.status).toBe(409);
    expect(errorOf(stale.body).message).toMatch(/changed by api-labeller .*version 2, you edited version 1/);
    expect((await call("DELETE", `?id=${l.id}&version=1`)).status).toBe(409);
    expect((await call("DELETE", `?id=${l.id}&version=2`)).status).toBe(204);
    expect(
      (await t.db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId }, select: { annotationCount: true } })).annotationCount,
    ).toBe(0);
  });

  it("answers 400 naming the field for bad input, and for a body that is not JSON", async () => {
    const bad = await call("POST", "", { trajectory: trajectoryId, schema: "error-category", value: "nope" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).message).toMatch(/^value: "nope" is not an option of error-category/);
    const extra = await call("POST", "", { trajectory: trajectoryId, schema: "error-category", value: "hang", colour: "red" });
    expect(extra.status).toBe(400);
    expect(errorOf(extra.body).message).toMatch(/colour/);
    const notJson = await call("POST", "", "{oops");
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson.body).message).toMatch(/^request body is not valid JSON \(/);
    expect((await call("GET", "?limit=0")).status).toBe(400);
    expect((await call("DELETE", "?id=x")).status).toBe(400);
  });
});
