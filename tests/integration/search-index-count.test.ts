// step_search_count, the number of indexed trajectories kept by triggers on step_search_doc, on SQLite and
// PostgreSQL: after indexing, deletions (one at a time, in bulk, and cascading from Trajectory), a rebuild (TRUNCATE
// on PostgreSQL) and a fold of many rows into one, it equals COUNT(*) of step_search_doc, and searchIndexLag equals
// the lag counted from both tables.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { indexMissingTrajectories, reindexSearch, searchIndexLag } from "../../lib/db/repositories/search/index.ts";

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
