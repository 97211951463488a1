// TrajectoryFacetCell, the browser's precomputed facet counts, on SQLite and PostgreSQL: after an import and after
// every other kind of write to Trajectory (Prisma updates, raw SQL, a parent's deletion setting its attempts'
// parentId to NULL, a strict import's rollback), the cells' counts equal a GROUP BY over Trajectory; their bounds do
// too, or the cell is marked stale until refreshFacetCellBounds, and the facets read exact bounds either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { labelForkCategory } from "../helpers/fork-labels.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { deleteImportedTrajectories } from "../../lib/db/repositories/import-jobs.ts";
import { refreshFacetCellBounds } from "../../lib/db/repositories/browse/facet-cells.ts";
import { getTrajectoryFacets, listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { NO_ERROR, trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

const KEY = ["outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory"] as const;
const VALUES = [
  "n",
  "rewardMin",
  "rewardMax",
  "stepsMin",
  "stepsMax",
  "durationMin",
  "durationMax",
  "errorStepMin",
  "errorStepMax",
] as const;

/** Rows as comparable strings, numbers normalised (bigint on PostgreSQL, 0/1 booleans on SQLite). */
const normalise = (rows: Record<string, unknown>[]) =>
  rows
    .map((r) =>
      [...KEY, ...VALUES]
        .map((k) => (r[k] === null || r[k] === undefined ? "null" : String(Number.isNaN(Number(r[k])) ? r[k] : Number(r[k]))))
        .join("|"),
    )
    .sort();

describe.each(PROVIDERS)("facet cells on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    const r = await seedDemo(t.ctx, { count: 240, seed: 7 });
    expect(r?.imported).toBeGreaterThan(200);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function expected() {
    return normalise(
      await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT t."outcome", t."runId", t."taskId",
        COALESCE(t."firstErrorCategory", '') AS "errorCategory", CASE WHEN t."forkPointCount" > 0 THEN 1 ELSE 0 END AS "forks",
        CASE WHEN t."parentId" IS NOT NULL THEN 1 ELSE 0 END AS "attempt", CASE WHEN t."warningCount" > 0 THEN 1 ELSE 0 END AS "warnings",
        CASE WHEN t."forkPointId" IS NOT NULL THEN 1 ELSE 0 END AS "forkPoint", COALESCE(fp."errorCategory", '') AS "forkCategory",
        COUNT(*) AS "n", MIN(t."reward") AS "rewardMin", MAX(t."reward") AS "rewardMax", MIN(t."stepCount") AS "stepsMin",
        MAX(t."stepCount") AS "stepsMax", MIN(t."durationMs") AS "durationMin", MAX(t."durationMs") AS "durationMax",
        MIN(t."firstErrorStep") AS "errorStepMin", MAX(t."firstErrorStep") AS "errorStepMax"
        FROM "Trajectory" t LEFT JOIN "ForkPoint" fp ON fp."id" = t."forkPointId" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`),
    );
  }
  const cells = async () => normalise(await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "TrajectoryFacetCell"`));
  const staleCells = () => t.db.trajectoryFacetCell.count({ where: { boundsStale: 1 } });
  /** The facets as read from the cells, and as counted over the rows (a step range every row passes, not a cell filter). */
  async function facetsBothWays() {
    const a = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({}));
    const b = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ steps: "0..100000" }));
    return [
      { ...a, steps: null },
      { ...b, steps: null },
    ];
  }
  /**
   * Counts are exact after every write. A bound is exact, or its cell is marked stale and the stored bound is still
   * at least as wide; the facets read the stale cells' bounds from their rows, so they are exact either way; and
   * refreshFacetCellBounds makes every cell exact. Returns how many cells were stale before the refresh.
   */
  async function expectExact(): Promise<number> {
    const want = await expected();
    const byKey = (rows: string[]) =>
      new Map(rows.map((r) => [r.split("|").slice(0, KEY.length).join("|"), r.split("|").slice(KEY.length)]));
    const truth = byKey(want);
    const stored = await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "TrajectoryFacetCell"`);
    expect(stored.length).toBe(truth.size);
    for (const row of stored) {
      const [line] = normalise([row]);
      const [key, values] = [line!.split("|").slice(0, KEY.length).join("|"), line!.split("|").slice(KEY.length)];
      const exact = truth.get(key);
      expect(exact, key).toBeDefined();
      expect(values[0], `n of ${key}`).toBe(exact![0]);
      values.slice(1).forEach((v, i) => {
        if (Number(row.boundsStale) === 0 || exact![i + 1] === "null") expect(v, `${VALUES[i + 1]} of ${key}`).toBe(exact![i + 1]);
        else if (i % 2 === 0) expect(Number(v), `${VALUES[i + 1]} of stale ${key}`).toBeLessThanOrEqual(Number(exact![i + 1]));
        else expect(Number(v), `${VALUES[i + 1]} of stale ${key}`).toBeGreaterThanOrEqual(Number(exact![i + 1]));
      });
    }
    const [fromCells, fromRows] = await facetsBothWays();
    expect(fromCells).toEqual(fromRows);
    const stale = await staleCells();
    expect(await refreshFacetCellBounds(t.db)).toBe(stale);
    expect(await cells()).toEqual(want);
    expect(await staleCells()).toBe(0);
    return stale;
  }

  it.skipIf(skip)("an import fills the cells, with every dimension represented", async () => {
    // The import's settling refreshed the bounds its fork links made stale.
    expect(await staleCells()).toBe(0);
    await expectExact();
    expect((await cells()).length).toBeGreaterThan(10);
    const attempts = await t.db.trajectory.count({ where: { parentId: { not: null } } });
    const forked = await t.db.trajectory.count({ where: { forkPointCount: { gt: 0 } } });
    expect(attempts).toBeGreaterThan(0);
    expect(forked).toBeGreaterThan(0);
  });

  it.skipIf(skip)("facets and page totals from the cells equal those counted over the rows, a labelled fork point included", async () => {
    const fp = await t.db.forkPoint.findFirstOrThrow({ where: { errorCategory: { not: null }, attempts: { some: {} } } });
    await labelForkCategory(t.db, t.ctx.actor.id, fp, fp.errorCategory === "hang" ? "command-error" : "hang");
    const run = (await t.db.run.findFirstOrThrow()).id;
    const queries = [{}, { outcome: "failed" }, { runId: run, attempt: "yes" }, { error: NO_ERROR }, { forks: "no", warnings: "no" }];
    for (const input of queries) {
      const cells = trajectoryListQuerySchema.parse(input);
      // A step range every trajectory passes: the same rows, counted the row-by-row way (not a cell dimension).
      const rows = trajectoryListQuerySchema.parse({ ...input, steps: "0..100000" });
      const [a, b] = [await getTrajectoryFacets(t.ctx, cells), await getTrajectoryFacets(t.ctx, rows)];
      expect({ ...a, steps: null }, JSON.stringify(input)).toEqual({ ...b, steps: null });
      if (input === queries[0])
        expect(a!.forkError.reduce((n, o) => n + o.count, 0)).toBe(await t.db.trajectory.count({ where: { forkPointId: { not: null } } }));
      expect((await listTrajectories(t.ctx, cells)).total).toBe((await listTrajectories(t.ctx, rows)).total);
    }
  });

  it.skipIf(skip)("updates move rows between cells and keep the bounds exact, widening and shrinking", async () => {
    const ids = (await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" }, take: 12 })).map((r) => r.id);
    await t.db.trajectory.updateMany({ where: { id: { in: ids.slice(0, 6) } }, data: { outcome: "passed", firstErrorCategory: null } });
    await expectExact();
    // One extreme value widens its cell; putting it back shrinks the cell to the others' bounds again (a cell with
    // other rows: a cell left empty is deleted, and comes back exact).
    const shared = await t.db.trajectory.groupBy({
      by: ["outcome", "runId", "taskId", "firstErrorCategory"],
      where: { forkPointCount: 0, parentId: null, warningCount: 0, id: { notIn: ids } },
      having: { id: { _count: { gte: 2 } } },
      take: 1,
      orderBy: { runId: "asc" },
    });
    const { outcome, runId, taskId, firstErrorCategory } = shared[0]!;
    const one = await t.db.trajectory.findFirstOrThrow({
      where: { outcome, runId, taskId, firstErrorCategory, forkPointCount: 0, parentId: null, warningCount: 0 },
    });
    await t.db.trajectory.update({ where: { id: one.id }, data: { reward: 1e6, stepCount: 99_999, durationMs: 1, firstErrorStep: 4_000 } });
    await expectExact();
    await t.db.trajectory.update({
      where: { id: one.id },
      data: { reward: one.reward, stepCount: one.stepCount, durationMs: one.durationMs, firstErrorStep: one.firstErrorStep },
    });
    // The extreme row left its cell's bounds: the cell is marked stale (not rescanned), and the facets still read exact.
    expect(await expectExact()).toBeGreaterThan(0);
    // Raw SQL, several rows and several dimensions in one statement.
    await t.db.$executeRawUnsafe(
      `UPDATE "Trajectory" SET "warningCount" = "warningCount" + 1, "outcome" = 'unknown' WHERE "id" IN (${ids
        .slice(6)
        .map((id) => `'${id}'`)
        .join(", ")})`,
    );
    await expectExact();
    // A column outside the cells changes no cell.
    const before = await cells();
    await t.db.trajectory.updateMany({ where: { id: { in: ids } }, data: { annotationCount: { increment: 1 } } });
    expect(await cells()).toEqual(before);
  });

  it.skipIf(skip)("becoming an attempt, and a parent's deletion setting its attempts' parentId to NULL", async () => {
    const [a, b] = await t.db.trajectory.findMany({ where: { parentId: null, forkPointCount: 0 }, take: 2, orderBy: { id: "desc" } });
    await t.db.trajectory.update({ where: { id: b!.id }, data: { parentId: a!.id, forkStepIndex: 0 } });
    await expectExact();
    const parent = await t.db.trajectory.findFirstOrThrow({ where: { attempts: { some: {} } }, include: { attempts: true } });
    await t.db.trajectory.delete({ where: { id: parent.id } });
    expect(await t.db.trajectory.count({ where: { id: { in: parent.attempts.map((x) => x.id) }, parentId: { not: null } } })).toBe(0);
    await expectExact();
  });

  it.skipIf(skip)("a deleted fork point's attempts leave its category's cells, and a fork point's category is fixed", async () => {
    const fp = await t.db.forkPoint.findFirstOrThrow({ where: { errorCategory: { not: null }, attempts: { some: {} } } });
    // Refused by a trigger (Prisma reports SQLite's RAISE as a constraint violation, so the message is not checked).
    await expect(t.db.forkPoint.update({ where: { id: fp.id }, data: { errorCategory: "something-else" } })).rejects.toThrow();
    expect((await t.db.forkPoint.findUniqueOrThrow({ where: { id: fp.id } })).errorCategory).toBe(fp.errorCategory);
    await t.db.forkPoint.delete({ where: { id: fp.id } });
    expect(await t.db.trajectory.count({ where: { forkPointId: fp.id } })).toBe(0);
    await expectExact();
  });

  it.skipIf(skip)("a rolled-back import's trajectories leave no cell behind", async () => {
    const jobs = await t.db.importJob.findMany({ select: { id: true } });
    for (const j of jobs) await deleteImportedTrajectories(t.db, j.id);
    await t.db.trajectory.deleteMany({});
    expect(await cells()).toEqual([]);
  });
});
