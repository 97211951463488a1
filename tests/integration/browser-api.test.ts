// GET /api/v1/trajectories and /api/v1/search through their route handlers (SQLite: the handlers are provider-
// neutral; the queries behind them run on both databases in browser.test.ts and browser-search.test.ts).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

const SEED = { count: 40, seed: 9 };
const generated = [...generateTrajectories(SEED)];
type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let t: TestDatabase;
let trajectories: Handler;
let search: Handler;

async function get(handler: Handler, query: string): Promise<{ status: number; body: unknown }> {
  const res = await handler(new NextRequest(`http://localhost/api?${query}`), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}
const errorOf = (body: unknown) => z.object({ error: z.object({ code: z.string(), message: z.string() }) }).parse(body).error;

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  await seedDemo(t.ctx, SEED);
  process.env.DATABASE_URL = t.config.url;
  process.env.RETERM_USER = "api-test";
  trajectories = (await import("../../app/api/v1/trajectories/route.ts")).GET;
  search = (await import("../../app/api/v1/search/route.ts")).GET;
});
afterAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  await getDb().$disconnect();
  await t?.drop();
});

describe("GET /api/v1/trajectories", () => {
  it("answers a filtered, sorted page with cursors", async () => {
    const { status, body } = await get(trajectories, "outcome=failed&sort=stepCount&dir=desc&perPage=5");
    expect(status).toBe(200);
    const page = z
      .object({
        total: z.number(),
        rows: z.array(z.object({ outcome: z.string(), stepCount: z.number() })),
        nextCursor: z.string().nullable(),
      })
      .parse(body);
    expect(page.total).toBe(generated.filter((g) => g.outcome === "failed").length);
    expect(page.rows[0]!.stepCount).toBe(Math.max(...generated.filter((g) => g.outcome === "failed").map((g) => g.steps.length)));
    const next = await get(trajectories, `outcome=failed&sort=stepCount&dir=desc&perPage=5&page=2&cursor=${page.nextCursor}`);
    expect(next.status).toBe(200);
  });

  it("returns every matching id with select=ids, and facet counts with facets=1", async () => {
    const ids = z
      .object({ total: z.number(), ids: z.array(z.string()), truncated: z.boolean() })
      .parse((await get(trajectories, "outcome=passed&select=ids")).body);
    expect(ids.total).toBe(generated.filter((g) => g.outcome === "passed").length);
    expect(ids.ids).toHaveLength(ids.total);
    const withFacets = z
      .object({ facets: z.object({ outcome: z.array(z.object({ value: z.string(), count: z.number() })) }) })
      .parse((await get(trajectories, "facets=1")).body);
    expect(withFacets.facets.outcome.find((o) => o.value === "failed")?.count).toBe(generated.filter((g) => g.outcome === "failed").length);
  });

  it("answers every GET example in docs/api.md, in the order it documents", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/api.md"), "utf8");
    const examples = [...doc.matchAll(/curl -sS "http:\/\/localhost:3000\/api\/v1\/trajectories\?([^"]+)"/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(4);
    expect(examples).toContain("sort=stepCount.desc,reward.asc&steps=10..40&perPage=10");
    for (const query of examples) {
      const { status, body } = await get(trajectories, query);
      expect(status, `${query}: ${JSON.stringify(body).slice(0, 200)}`).toBe(200);
    }
    const row = z.object({ stepCount: z.number(), reward: z.number().nullable() });
    const inline = z
      .object({ rows: z.array(row) })
      .parse((await get(trajectories, "sort=stepCount.desc,reward.asc&perPage=100")).body).rows;
    const expected = generated.map((g) => ({ stepCount: g.steps.length, reward: g.reward ?? null }));
    expected.sort((a, b) => b.stepCount - a.stepCount || (a.reward === null ? 1 : b.reward === null ? -1 : a.reward - b.reward));
    expect(inline.map((r) => [r.stepCount, r.reward])).toEqual(expected.map((r) => [r.stepCount, r.reward]));
    const withDir = z
      .object({ rows: z.array(row) })
      .parse((await get(trajectories, "sort=stepCount,reward&dir=desc,asc&perPage=100")).body).rows;
    expect(withDir).toEqual(inline);
  });

  it.each([
    ["sort=stepCount.desc&dir=asc", /^dir: cannot be combined with directions in sort/],
    ["sort=stepCount.up", /^sort: unknown column "stepCount\.up"/],
    ["sort=password", /^sort: unknown column "password"/],
    ["cols=task,secret", /^cols: unknown column "secret"/],
    ["reward=1..0", /^reward: bad range: min 1 is greater than max 0/],
    ["steps=many", /^steps: bad range "many"/],
    ["perPage=1000", /^perPage: must be at most 100/],
    ["page=0", /^page: must be at least 1/],
    ["cursor=garbage", /^cursor: is not a valid page cursor/],
    ["outcome=great", /^outcome\.0: must be one of passed, failed, unknown/],
    ["limit=5", /limit/],
  ])("rejects %s with 400 and a message naming the parameter", async (query, message) => {
    const { status, body } = await get(trajectories, query);
    expect(status).toBe(400);
    expect(errorOf(body)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(message) });
  });
});

describe("GET /api/v1/search", () => {
  it("returns matching steps with snippets and links to the step", async () => {
    const { status, body } = await get(search, "q=pytest&limit=3");
    expect(status).toBe(200);
    const r = z
      .object({
        hits: z.array(
          z.object({
            href: z.string(),
            match: z.object({ stepIndex: z.number(), parts: z.array(z.object({ text: z.string(), hit: z.boolean() })) }),
          }),
        ),
        nextCursor: z.string().nullable(),
      })
      .parse(body);
    expect(r.hits).toHaveLength(3);
    for (const h of r.hits) {
      expect(h.href).toMatch(new RegExp(`\\?step=${h.match.stepIndex}#step-${h.match.stepIndex}$`));
      expect(h.match.parts.some((p) => p.hit && p.text.toLowerCase() === "pytest")).toBe(true);
    }
    expect(r.nextCursor).not.toBeNull();
  });

  it.each([
    ["", /^q: /],
    ["q=x&limit=500", /^limit: must be at most 50/],
    ["q=x&cursor=abc", /^cursor: is not a valid search cursor/],
    ["q=x&sort=reward", /sort/],
  ])("rejects %s with 400", async (query, message) => {
    const { status, body } = await get(search, query);
    expect(status).toBe(400);
    expect(errorOf(body).message).toMatch(message);
  });
});
