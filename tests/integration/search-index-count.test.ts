// step_search_count, the number of indexed trajectories kept by triggers on step_search_doc, on SQLite and
// PostgreSQL: after indexing, deletions (one at a time, in bulk, and cascading from Trajectory), a rebuild (TRUNCATE
// on PostgreSQL) and a fold of many rows into one, it equals COUNT(*) of step_search_doc, and searchIndexLag equals
// the lag counted from both tables. A rebuild in several lanes writes exactly the rows one lane writes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { indexMissingTrajectories, reindexSearch, searchIndexLag } from "../../lib/db/repositories/search/index.ts";
import { listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

describe.each(PROVIDERS)("the search index count on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 80, seed: 5 });
  });
  afterAll(async () => {
    await t?.drop();
  });

  const scalar = async (sql: string) => Number(Object.values((await t.db.$queryRawUnsafe<Record<string, unknown>[]>(sql))[0]!)[0]);
  /** The kept count equals the table's, and the lag equals the one counted from both tables; returns the lag. */
  async function expectExact(): Promise<number> {
    const kept = await scalar(`SELECT COALESCE(SUM("n"), 0) FROM "step_search_count"`);
    const docs = await scalar(`SELECT COUNT(*) FROM "step_search_doc"`);
    const trajectories = await scalar(`SELECT COUNT(*) FROM "Trajectory"`);
    expect(kept).toBe(docs);
    const lag = await searchIndexLag(t.db);
    expect(lag).toBe(trajectories - docs);
    return lag;
  }
  const firstDocs = async (n: number) =>
    (await t.db.$queryRawUnsafe<{ id: string }[]>(`SELECT "trajectory_id" AS "id" FROM "step_search_doc" ORDER BY "seq" LIMIT ${n}`)).map(
      (r) => r.id,
    );

  it.skipIf(skip)("starts equal to the index and follows indexing and deletions", async () => {
    expect(await scalar(`SELECT COUNT(*) FROM "step_search_doc"`)).toBeGreaterThan(0);
    expect(await expectExact()).toBe(0);
    const [one, ...bulk] = await firstDocs(4);
    await t.db.$executeRawUnsafe(`DELETE FROM "step_search_doc" WHERE "trajectory_id" = '${one}'`);
    expect(await expectExact()).toBe(1);
    await t.db.$executeRawUnsafe(`DELETE FROM "step_search_doc" WHERE "trajectory_id" IN (${bulk.map((id) => `'${id}'`).join(", ")})`);
    expect(await expectExact()).toBe(4);
    expect(await indexMissingTrajectories(t.db, 100)).toBe(4);
    expect(await expectExact()).toBe(0);
  });

  it.skipIf(skip)("a deleted trajectory leaves the count with its cascaded doc row", async () => {
    const [id] = await firstDocs(1);
    const before = await scalar(`SELECT COALESCE(SUM("n"), 0) FROM "step_search_count"`);
    await t.db.trajectory.delete({ where: { id: id! } });
    expect(await scalar(`SELECT COALESCE(SUM("n"), 0) FROM "step_search_count"`)).toBe(before - 1);
    expect(await expectExact()).toBe(0);
  });

  it.skipIf(skip)("a rebuild starts the count again from zero", async () => {
    const { trajectories } = await reindexSearch(t.db);
    expect(trajectories).toBeGreaterThan(0);
    expect(await expectExact()).toBe(0);
  });

  /** Every index row as (trajectory, step index, its words), and how many trajectories hold a common word. */
  async function indexContents() {
    const rows = await t.db.$transaction(async (tx) => {
      if (provider === "postgresql") {
        return tx.$queryRawUnsafe<{ id: string; step: number | bigint; body: string }[]>(
          `SELECT d."trajectory_id" AS "id", CAST(s."rid" % 1048576 AS INTEGER) AS "step", s."tsv"::text AS "body" FROM "step_search" s JOIN "step_search_doc" d ON d."trajectory_id" = s."trajectory_id" ORDER BY 1, 2`,
        );
      }
      // A contentless FTS5 table cannot be scanned: its rows' words come from the instance vocabulary (per connection,
      // hence the transaction).
      await tx.$executeRawUnsafe(`CREATE VIRTUAL TABLE IF NOT EXISTS temp."fts_instances" USING fts5vocab(main, "step_fts", instance)`);
      return tx.$queryRawUnsafe<{ id: string; step: number | bigint; body: string }[]>(
        `SELECT d."trajectory_id" AS "id", w."doc" % 1048576 AS "step", group_concat(w."term" || ':' || w."offset", ' ') AS "body"
         FROM (SELECT * FROM temp."fts_instances" ORDER BY "doc", "offset") w JOIN "step_search_doc" d ON d."seq" = w."doc" >> 20
         GROUP BY w."doc" ORDER BY 1, 2`,
      );
    });
    const hits = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ q: "error" }));
    return { rows: rows.map((r) => ({ ...r, step: Number(r.step) })), errorTrajectories: hits.total };
  }

  it.skipIf(skip)("a rebuild in several lanes writes the index one lane writes, each trajectory once", async () => {
    await reindexSearch(t.db, { lanes: 1 });
    const one = await indexContents();
    const seen: number[] = [];
    const { trajectories } = await reindexSearch(t.db, { lanes: 3, page: 7, onProgress: (n) => seen.push(n) });
    const all = await scalar(`SELECT COUNT(*) FROM "Trajectory"`);
    expect(trajectories).toBe(all);
    // Pages of 7 over the lanes: progress rises to the total, whichever lane reports.
    expect(seen.length).toBe(Math.ceil(all / 7));
    expect(seen.at(-1)).toBe(all);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    const three = await indexContents();
    expect(three.rows.length).toBeGreaterThan(all);
    expect(three).toEqual(one);
    expect(one.errorTrajectories).toBeGreaterThan(0);
    expect(await expectExact()).toBe(0);
  });

  it.skipIf(skip)("many rows of changes fold into one with the same sum", async () => {
    const ids = await firstDocs(70);
    for (const id of ids) await t.db.$executeRawUnsafe(`DELETE FROM "step_search_doc" WHERE "trajectory_id" = '${id}'`);
    expect(await expectExact()).toBe(70);
    // The check above folded PostgreSQL's rows (one per statement); SQLite keeps one row throughout.
    expect(await scalar(`SELECT COUNT(*) FROM "step_search_count"`)).toBe(1);
    expect(await expectExact()).toBe(70);
    await indexMissingTrajectories(t.db, 1000);
    expect(await expectExact()).toBe(0);
  });
});
