// A search's facets from the search index's rows, which carry each indexed trajectory's facet key on PostgreSQL
// (migration 20261206233000_search_doc_keys): the keys stay exact after every kind of write to the trajectories they
// copy (Prisma and raw updates, a fork point set and deleted, a rebuild of the index), and the facets counted from
// them, read once for every facet or again by each statement, equal those counted through Trajectory for words,
// phrases and every kind of other filter, with a labelled fork point among the matches. On SQLite the index keeps no
// keys and every way is the Trajectory way: the facet comparison runs there too.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { labelForkCategory } from "../helpers/fork-labels.ts";
import { execSql, openPgSession } from "../helpers/raw-sql.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { getTrajectoryFacets, listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { indexMissingTrajectories, reindexSearch } from "../../lib/db/repositories/search/index.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

const KEY_COLUMNS = [
  "trajectory_id",
  "outcome",
  "runId",
  "taskId",
  "errorCategory",
  "forks",
  "attempt",
  "warnings",
  "forkPoint",
  "forkCategory",
  "reward",
  "stepCount",
  "durationMs",
  "firstErrorStep",
] as const;
const flag = (c: string) => `CASE WHEN ${c} THEN 1 ELSE 0 END`;
// The keys computed from scratch, for the indexed trajectories.
const TRUTH = `SELECT t."id" AS "trajectory_id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", '') AS "errorCategory",
  ${flag(`t."forkPointCount" > 0`)} AS "forks", ${flag(`t."parentId" IS NOT NULL`)} AS "attempt", ${flag(`t."warningCount" > 0`)} AS "warnings",
  ${flag(`t."forkPointId" IS NOT NULL`)} AS "forkPoint", COALESCE(fp."errorCategory", '') AS "forkCategory",
  t."reward", t."stepCount", t."durationMs", t."firstErrorStep"
  FROM "Trajectory" t LEFT JOIN "ForkPoint" fp ON fp."id" = t."forkPointId" WHERE t."id" IN (SELECT "trajectory_id" FROM "step_search_doc")`;
const normalise = (rows: Record<string, unknown>[]) =>
  rows.map((r) => KEY_COLUMNS.map((k) => (typeof r[k] === "bigint" ? Number(r[k]) : r[k])).join("|")).sort();
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);
const LABELLED = "labelled-in-test";

describe.each(PROVIDERS)("a search's facets from the index's keys on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 80, seed: 7 });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  async function expectExactKeys(): Promise<number> {
    const want = normalise(await t.db.$queryRawUnsafe<Record<string, unknown>[]>(TRUTH));
    const have = normalise(
      await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT ${KEY_COLUMNS.map((k) => `"${k}"`).join(", ")} FROM "step_search_doc"`),
    );
    expect(have).toEqual(want);
    return want.length;
  }

  it.skipIf(skip || provider !== "postgresql")(
    "the index rows keep their trajectories' keys through updates, fork point changes and rebuilds",
    async () => {
      expect(await expectExactKeys()).toBe(await t.db.trajectory.count());
      const [a, b, c] = await t.db.trajectory.findMany({
        where: { parentId: null },
        orderBy: { id: "asc" },
        take: 3,
        select: { id: true },
      });
      // Prisma updates of every key and range column.
      await t.db.trajectory.update({
        where: { id: a!.id },
        data: {
          outcome: "passed",
          firstErrorCategory: "timeout",
          reward: 0.25,
          stepCount: 99,
          durationMs: 1234,
          firstErrorStep: 7,
          warningCount: 2,
        },
      });
      await t.db.trajectory.updateMany({ where: { id: { in: [b!.id, c!.id] } }, data: { firstErrorCategory: null, firstErrorStep: null } });
      await expectExactKeys();
      // Raw SQL, and a statement changing nothing the keys hold.
      await t.db.$executeRawUnsafe(`UPDATE "Trajectory" SET "outcome" = 'failed', "reward" = NULL WHERE "id" = '${b!.id}'`);
      await t.db.$executeRawUnsafe(`UPDATE "Trajectory" SET "annotationCount" = "annotationCount" + 1`);
      await expectExactKeys();
      // An attempt moved to a fork point with a category, then that fork point deleted (its attempts are detached).
      const attempt = await t.db.trajectory.findFirstOrThrow({ where: { parentId: { not: null } }, select: { id: true } });
      const fork = await t.db.forkPoint.create({ data: { trajectoryId: c!.id, stepIndex: 1, errorCategory: "hang" } });
      await t.db.trajectory.update({ where: { id: attempt.id }, data: { forkPointId: fork.id } });
      expect(
        (
          await t.db.$queryRawUnsafe<{ k: string }[]>(
            `SELECT "forkCategory" AS "k" FROM "step_search_doc" WHERE "trajectory_id" = '${attempt.id}'`,
          )
        )[0]!.k,
      ).toBe("hang");
      await expectExactKeys();
      await t.db.forkPoint.delete({ where: { id: fork.id } });
      await expectExactKeys();
      // A rebuild writes every row again.
      await reindexSearch(t.db);
      expect(await expectExactKeys()).toBe(await t.db.trajectory.count());
    },
  );

  // A row past 2 kB is toasted down to the table's 128-byte target: the words go out of line, and anything else
  // stored EXTENDED would follow them, to be fetched back from the TOAST table by every statement that reads it.
  it.skipIf(skip || provider !== "postgresql")(
    "a row whose words are toasted keeps its id and keys inline, and the migration brings back ids moved out",
    async () => {
      const { id } = await t.db.trajectory.findFirstOrThrow({ orderBy: { id: "desc" }, select: { id: true } });
      const manyWords = Array.from({ length: 3000 }, (_, i) => `w${i}x${i * 7919}`).join(" ");
      const [saved] = await t.db.$queryRawUnsafe<{ words: string }[]>(
        `SELECT "words"::text AS "words" FROM "step_search_doc" WHERE "trajectory_id" = $1`,
        id,
      );
      const rewrite = async () => {
        await t.db.$executeRawUnsafe(`DELETE FROM "step_search_doc" WHERE "trajectory_id" = $1`, id);
        await t.db.$executeRawUnsafe(
          `INSERT INTO "step_search_doc" ("trajectory_id", "words") VALUES ($1, strip(to_tsvector('simple', $2)))`,
          id,
          manyWords,
        );
      };
      // An inline value takes its length plus a header; one out of line reports its length alone.
      const outOfLine = async (column: string) =>
        Number(
          (
            await t.db.$queryRawUnsafe<{ n: bigint }[]>(
              `SELECT COUNT(*) AS "n" FROM "step_search_doc" WHERE pg_column_size("${column}") <= octet_length("${column}")`,
            )
          )[0]!.n,
        );
      await rewrite();
      const [row] = await t.db.$queryRawUnsafe<{ n: number }[]>(
        `SELECT length("words") AS "n" FROM "step_search_doc" WHERE "trajectory_id" = $1`,
        id,
      );
      expect(row!.n).toBe(3000);
      for (const column of ["trajectory_id", "outcome", "runId", "taskId"]) expect(await outOfLine(column), column).toBe(0);
      // As an earlier release stored it: the id out of line. Then the migration's own statements.
      await t.db.$executeRawUnsafe(`ALTER TABLE "step_search_doc" ALTER COLUMN "trajectory_id" SET STORAGE EXTENDED`);
      await rewrite();
      expect(await outOfLine("trajectory_id")).toBe(1);
      const migration = path.resolve(
        import.meta.dirname,
        "../../prisma/postgres/migrations/20261207181500_search_doc_id_inline/migration.sql",
      );
      await execSql(t.config, fs.readFileSync(migration, "utf8"));
      expect(await outOfLine("trajectory_id")).toBe(0);
      await rewrite();
      expect(await outOfLine("trajectory_id")).toBe(0);
      await expectExactKeys();
      // Its own words back, for the tests after this one.
      await t.db.$executeRawUnsafe(`UPDATE "step_search_doc" SET "words" = $2::tsvector WHERE "trajectory_id" = $1`, id, saved!.words);
    },
  );

  it.skipIf(skip)("a search's facets from the index rows equal those counted through Trajectory", async () => {
    // An annotator's category on the fork point of an attempt that matches: its attempts count under the label.
    const attempt = (await listTrajectories(t.ctx, q({ q: "pytest", attempt: "yes" }))).rows[0]!;
    const { forkPointId } = await t.db.trajectory.findUniqueOrThrow({ where: { id: attempt.id }, select: { forkPointId: true } });
    const fork = await t.db.forkPoint.findUniqueOrThrow({ where: { id: forkPointId! } });
    await labelForkCategory(t.db, t.ctx.actor.id, fork, LABELLED);
    const forkErrors = await getTrajectoryFacets(t.ctx, q({}));
    const forkError = forkErrors!.forkError[0]?.value;
    const run = forkErrors!.runId[0]!.value;
    expect(forkError).toBeDefined();
    const queries: Record<string, unknown>[] = [
      { q: "pytest" },
      { q: "ModuleNotFoundError" },
      { q: '"no module named"' },
      { q: "pip install" },
      { q: "pytest", outcome: "failed" },
      { q: "pytest", runId: run, forks: "yes" },
      { q: "pytest", attempt: "yes", warnings: "no" },
      { q: "pytest", forkError },
      { q: "pytest", error: "none" },
      // Not cell filters: these count through Trajectory both ways.
      { q: "pytest", steps: "5..40" },
      { q: "pytest", annotated: "nobody" },
    ];
    let matched = 0;
    for (const input of queries) {
      const fromIndex = await getTrajectoryFacets(t.ctx, q(input));
      const fromTrajectory = await getTrajectoryFacets(t.ctx, q(input), "trajectory");
      expect(fromIndex, JSON.stringify(input)).toEqual(fromTrajectory);
      expect(await getTrajectoryFacets(t.ctx, q(input), "index-per-statement"), JSON.stringify(input)).toEqual(fromTrajectory);
      expect(await getTrajectoryFacets(t.ctx, q(input), "index-one-statement"), JSON.stringify(input)).toEqual(fromTrajectory);
      const total = fromIndex!.outcome.reduce((n, o) => n + o.count, 0);
      if (total > 0) matched++;
    }
    // The comparison means something only if the searches match trajectories.
    expect(matched).toBeGreaterThanOrEqual(8);
    const pytest = (await getTrajectoryFacets(t.ctx, q({ q: "pytest" })))!.forkError;
    expect(pytest.find((o) => o.value === LABELLED)?.count).toBeGreaterThan(0);
    expect(pytest.length).toBeGreaterThan(1);
  });
});

// The doc trigger locks each trajectory whose key it copies. An indexing pass and an import updating the same
// trajectories in another order would wait on each other, and PostgreSQL would abort one of them — perhaps the
// import. The pass takes its locks first, in id order, gives up after a short wait and tries again.
describe.skipIf(!PROVIDERS.some((p) => p.provider === "postgresql" && !p.skip))("indexing beside an import on postgresql", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("postgresql");
    await seedDemo(t.ctx, { count: 12, seed: 11 });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  /** Every trajectory out of the index again (missing, for the next pass); their ids in order. */
  async function unindexAll(): Promise<string[]> {
    await t.db.$executeRawUnsafe(`DELETE FROM "step_search"`);
    await t.db.$executeRawUnsafe(`DELETE FROM "step_search_doc"`);
    return (await t.db.trajectory.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((r) => r.id);
  }

  it("an import holding the last of a batch's trajectories and then wanting the first commits, and the batch is indexed with its keys", async () => {
    const ids = await unindexAll();
    const [first, last] = [ids[0]!, ids.at(-1)!];
    const importer = await openPgSession(t.config.url);
    try {
      await importer.query("BEGIN");
      await importer.query(`UPDATE "Trajectory" SET "reward" = 0.5 WHERE "id" = $1`, [last]);
      const pass = indexMissingTrajectories(t.db, 100);
      // Until the pass waits for the trajectory the importer holds (it has locked the ones before it by then).
      for (let i = 0; i < 200; i++) {
        const waiting = await importer.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // Without the pass's short wait this closes a cycle and PostgreSQL aborts one side.
      await importer.query(`UPDATE "Trajectory" SET "outcome" = 'passed', "reward" = 0.75 WHERE "id" = $1`, [first]);
      await importer.query("COMMIT");
      expect(await pass).toBe(ids.length);
    } finally {
      await importer.end();
    }
    const keys = await t.db.$queryRawUnsafe<{ id: string; outcome: string; reward: number }[]>(
      `SELECT "trajectory_id" AS "id", "outcome", "reward" FROM "step_search_doc" WHERE "trajectory_id" IN ('${first}', '${last}') ORDER BY 1`,
    );
    expect(keys).toEqual([
      { id: first, outcome: "passed", reward: 0.75 },
      { id: last, outcome: expect.any(String), reward: 0.5 },
    ]);
    expect(await t.db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS "n" FROM "step_search_doc"`)).toEqual([
      { n: BigInt(ids.length) },
    ]);
  });

  it("a batch that keeps finding one of its trajectories locked indexes them one by one, waiting for that one", async () => {
    const ids = await unindexAll();
    const held = ids[Math.floor(ids.length / 2)]!;
    const importer = await openPgSession(t.config.url);
    try {
      await importer.query("BEGIN");
      await importer.query(`UPDATE "Trajectory" SET "reward" = 0.125 WHERE "id" = $1`, [held]);
      const pass = indexMissingTrajectories(t.db, 100);
      // Longer than the batch's tries; then the importer commits without wanting anything the pass holds.
      await new Promise((r) => setTimeout(r, 1500));
      await importer.query("COMMIT");
      expect(await pass).toBe(ids.length);
    } finally {
      await importer.end();
    }
    expect(
      await t.db.$queryRawUnsafe<{ reward: number }[]>(`SELECT "reward" FROM "step_search_doc" WHERE "trajectory_id" = '${held}'`),
    ).toEqual([{ reward: 0.125 }]);
  });
});
