// A search's matches read once for its facets (lib/db/repositories/browse/search-matches.ts, PostgreSQL only: the
// index rows carry keys there): the reads queued in one turn run as one statement over the hits, in one transaction;
// a read queued later runs on its own; a failing statement rejects every read queued with it instead of leaving one
// waiting; a table derived from the hits is written once for the statements that read it. The facet counts
// themselves are compared with the Trajectory way in search-facet-keys.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { sqlFragment as sql } from "../helpers/raw-sql.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { sharedMatches } from "../../lib/db/repositories/browse/search-matches.ts";
import { searchMatchRowsSql, parseSearchQuery } from "../../lib/db/repositories/search/index.ts";

const pg = PROVIDERS.find((p) => p.provider === "postgresql");
// The transaction a statement ran in, and what it saw of the hits.
const seenSchema = z.array(z.object({ tx: z.union([z.string(), z.number()]).transform(String), n: z.number() })).length(1);

describe.skipIf(!pg || pg.skip)("a search's matches read once for its facets on postgresql", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("postgresql");
    await seedDemo(t.ctx, { count: 80, seed: 7 });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const matchOf = (q: string) => searchMatchRowsSql("postgresql", parseSearchQuery(q)!, "c")!;
  const seen = sql`SELECT txid_current()::text AS "tx", COUNT(*)::int AS "n" FROM "hits" c`;

  it("reads queued in one turn share one statement and its hits; a later read runs on its own", async () => {
    const truth = await t.db.$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS "n" FROM "step_search_doc" c WHERE ${matchOf("pytest")}`;
    expect(truth[0]!.n).toBeGreaterThan(0);
    const shared = sharedMatches(t.db, 4_000, matchOf("pytest"));
    const both = (await Promise.all([shared.read(seen), shared.read(seen)])).map((rows) => seenSchema.parse(rows)[0]!);
    const a = both[0]!;
    expect(both[1]).toEqual(a);
    expect(a.n).toBe(truth[0]!.n);
    const later = seenSchema.parse(await shared.read(seen))[0]!;
    expect(later.n).toBe(a.n);
    expect(later.tx).not.toBe(a.tx);
    // Every statement's rows come back as they were, in its own column: several rows, nulls and numbers.
    const [ids, none] = await Promise.all([
      shared.read(sql`SELECT c."trajectory_id" AS "id", NULLIF(c."errorCategory", '') AS "e", c."reward" FROM "hits" c ORDER BY 1`),
      shared.read(sql`SELECT c."trajectory_id" AS "id" FROM "hits" c WHERE FALSE`),
    ]);
    const want = await t.db.$queryRaw<unknown[]>`SELECT c."trajectory_id" AS "id", NULLIF(c."errorCategory", '') AS "e", c."reward"
      FROM "step_search_doc" c WHERE ${matchOf("pytest")} ORDER BY 1`;
    expect(ids).toEqual(want);
    expect(none).toEqual([]);
  });

  it("tests a trajectory id against the hits", async () => {
    const shared = sharedMatches(t.db, null, matchOf("ModuleNotFoundError"));
    const rows = await shared.read(sql`SELECT COUNT(*)::int AS "n" FROM "Trajectory" t WHERE ${shared.on(sql`t."id"`)}`);
    const want = await t.db.$queryRaw<
      unknown[]
    >`SELECT COUNT(*)::int AS "n" FROM "step_search_doc" c WHERE ${matchOf("ModuleNotFoundError")}`;
    expect(rows).toEqual(want);
    // Some trajectories match, and not all of them, so the test means something.
    const n = z.array(z.object({ n: z.number() })).parse(want)[0]!.n;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(await t.db.trajectory.count());
  });

  it("a table derived from the hits is written once for the statements that name it, and left out where none does", async () => {
    const table = {
      name: "hit_steps",
      query: sql`SELECT c."trajectory_id", t."stepCount" FROM "hits" c JOIN "Trajectory" t ON t."id" = c."trajectory_id"`,
    };
    const shared = sharedMatches(t.db, 4_000, matchOf("pytest"), [table]);
    const [sum, rows] = await Promise.all([
      shared.read(sql`SELECT SUM(s."stepCount")::int AS "n" FROM "hit_steps" s`),
      shared.read(sql`SELECT COUNT(*)::int AS "n" FROM "hit_steps" s`),
    ]);
    const want = await t.db.$queryRaw<unknown[]>`SELECT SUM(t."stepCount")::int AS "n", COUNT(*)::int AS "c"
      FROM "step_search_doc" c JOIN "Trajectory" t ON t."id" = c."trajectory_id" WHERE ${matchOf("pytest")}`;
    const { n, c } = z.array(z.object({ n: z.number(), c: z.number() })).parse(want)[0]!;
    expect(c).toBeGreaterThan(0);
    expect([sum, rows]).toEqual([[{ n }], [{ n: c }]]);
    // A batch that never names the table does not compute it: one that would fail is never run.
    const failing = sharedMatches(t.db, 4_000, matchOf("pytest"), [{ name: "broken", query: sql`SELECT 1 / 0 AS "x" FROM "hits" c` }]);
    expect(await failing.read(sql`SELECT COUNT(*)::int AS "n" FROM "hits" c`)).toEqual([{ n: c }]);
    await expect(failing.read(sql`SELECT COUNT(*)::int AS "n" FROM "broken" b`)).rejects.toThrow(/division by zero/);
  });

  it("a statement that fails rejects every read queued with it", async () => {
    const shared = sharedMatches(t.db, 4_000, matchOf("pytest"));
    const results = await Promise.allSettled([shared.read(seen), shared.read(sql`SELECT 1 / 0 AS "x" FROM "hits" c`)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
