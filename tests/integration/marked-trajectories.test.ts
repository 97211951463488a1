// MarkedTrajectory, the cell keys of the trajectories that annotations or dataset items refer to, on SQLite and
// PostgreSQL: after every kind of write (annotations and dataset items added, moved and removed, a dataset version
// deleted with its items, a marked trajectory's cell columns changed by Prisma and by raw SQL, a marked trajectory
// deleted) its rows equal what they would be computed from scratch; and the dataset, label and "annotated" facets it
// answers under cell filters and searches equal those counted through Trajectory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { ensureUser } from "../../lib/db/repositories/accounts/users.ts";
import { getTrajectoryFacets } from "../../lib/services/browse/browse-trajectories.ts";
import { NO_ERROR, trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

const flag = (c: string) => `CASE WHEN ${c} THEN 1 ELSE 0 END`;
const TRUTH = `SELECT t."id" AS "trajectoryId", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", '') AS "errorCategory",
  ${flag(`t."forkPointCount" > 0`)} AS "forks", ${flag(`t."parentId" IS NOT NULL`)} AS "attempt", ${flag(`t."warningCount" > 0`)} AS "warnings",
  t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') AS "forkCategory", r."c" AS "marks"
  FROM (SELECT x."trajectoryId", COUNT(*) AS "c" FROM (SELECT "trajectoryId" FROM "Annotation" UNION ALL SELECT "trajectoryId" FROM "DatasetItem") x
    GROUP BY x."trajectoryId") r JOIN "Trajectory" t ON t."id" = r."trajectoryId"`;
const COLUMNS = [
  "trajectoryId",
  "outcome",
  "runId",
  "taskId",
  "errorCategory",
  "forks",
  "attempt",
  "warnings",
  "forkPointId",
  "forkCategory",
  "marks",
] as const;
const normalise = (rows: Record<string, unknown>[]) =>
  rows.map((r) => COLUMNS.map((k) => (typeof r[k] === "bigint" || typeof r[k] === "number" ? Number(r[k]) : r[k])).join("|")).sort();

describe.each(PROVIDERS)("marked trajectories on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let ids: string[];
  let schemaId: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 60, seed: 11 });
    ids = (await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
    schemaId = (await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function expectExact() {
    const want = normalise(await t.db.$queryRawUnsafe<Record<string, unknown>[]>(TRUTH));
    const have = normalise(await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "MarkedTrajectory"`));
    expect(have).toEqual(want);
    return want.length;
  }
  const label = (trajectoryId: string, annotatorId: string, value: string) => ({
    schemaId,
    annotatorId,
    targetType: "trajectory",
    targetKey: `trajectory:${trajectoryId}`,
    trajectoryId,
    value,
  });

  it.skipIf(skip)("annotations added, edited, moved and removed keep one row per marked trajectory with its count", async () => {
    const other = await ensureUser(t.db, "marks-b", "annotator");
    await t.db.annotation.createMany({
      data: [
        label(ids[0]!, t.ctx.actor.id, "hang"),
        label(ids[0]!, other.id, "command-error"),
        label(ids[1]!, t.ctx.actor.id, "hang"),
        label(ids[2]!, t.ctx.actor.id, "hang"),
      ],
    });
    expect(await expectExact()).toBeGreaterThanOrEqual(3);
    expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: ids[0]! } })).marks).toBe(2);
    // A label edit changes no mark; moving a label to another trajectory moves its mark.
    await t.db.annotation.updateMany({ where: { trajectoryId: ids[1]! }, data: { value: "timeout", version: { increment: 1 } } });
    await expectExact();
    const moved = await t.db.annotation.findFirstOrThrow({ where: { trajectoryId: ids[2]! } });
    await t.db.annotation.update({ where: { id: moved.id }, data: { trajectoryId: ids[3]!, targetKey: `trajectory:${ids[3]}` } });
    await expectExact();
    expect(await t.db.markedTrajectory.findUnique({ where: { trajectoryId: ids[2]! } })).toBeNull();
    // One of two labels removed: the row stays with one mark; the second removed: the row goes.
    await t.db.annotation.deleteMany({ where: { trajectoryId: ids[0]!, annotatorId: other.id } });
    expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: ids[0]! } })).marks).toBe(1);
    await t.db.$executeRawUnsafe(`DELETE FROM "Annotation" WHERE "trajectoryId" = '${ids[0]}'`);
    expect(await t.db.markedTrajectory.findUnique({ where: { trajectoryId: ids[0]! } })).toBeNull();
    await expectExact();
  });

  it.skipIf(skip)("dataset items mark their trajectories, and a deleted version takes its marks with it", async () => {
    const dataset = await t.db.dataset.create({ data: { name: "marks", createdById: t.ctx.actor.id } });
    const version = (n: number, items: string[]) =>
      t.db.datasetVersion.create({
        data: {
          datasetId: dataset.id,
          version: n,
          contentHash: `h${n}`,
          itemCount: items.length,
          createdById: t.ctx.actor.id,
          items: { create: items.map((trajectoryId, position) => ({ position, trajectoryId, kind: "trajectory" })) },
        },
      });
    await version(1, ids.slice(1, 20));
    const v2 = await version(2, ids.slice(10, 30));
    await expectExact();
    expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: ids[12]! } })).marks).toBe(2);
    await t.db.datasetVersion.delete({ where: { id: v2.id } });
    expect(await t.db.markedTrajectory.findUnique({ where: { trajectoryId: ids[25]! } })).toBeNull();
    await expectExact();
  });

  it.skipIf(skip)(
    "a marked trajectory's cell columns changed by Prisma or raw SQL change its key; deleting it removes the row",
    async () => {
      const marked = (await t.db.markedTrajectory.findMany({ select: { trajectoryId: true }, orderBy: { trajectoryId: "asc" } })).map(
        (r) => r.trajectoryId,
      );
      expect(marked.length).toBeGreaterThan(4);
      await t.db.trajectory.updateMany({
        where: { id: { in: marked.slice(0, 2) } },
        data: { outcome: "passed", firstErrorCategory: "hang" },
      });
      await expectExact();
      await t.db.$executeRawUnsafe(
        `UPDATE "Trajectory" SET "warningCount" = "warningCount" + 1, "outcome" = 'unknown', "forkPointCount" = 0 WHERE "id" IN ('${marked[2]}', '${marked[3]}')`,
      );
      await expectExact();
      expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: marked[2]! } })).warnings).toBe(1);
      // Labels cascade with their trajectory (dataset items would refuse the delete): an annotated one not in a dataset.
      const onlyLabelled = await t.db.trajectory.findFirstOrThrow({ where: { datasetItems: { none: {} } }, orderBy: { id: "desc" } });
      await t.db.annotation.create({ data: label(onlyLabelled.id, t.ctx.actor.id, "hang") });
      await expectExact();
      await t.db.trajectory.delete({ where: { id: onlyLabelled.id } });
      expect(await t.db.markedTrajectory.findUnique({ where: { trajectoryId: onlyLabelled.id } })).toBeNull();
      await expectExact();
      // An attempt's fork point: moved to another by raw SQL, then gone with its fork point (ON DELETE SET NULL).
      const attempt = await t.db.trajectory.findFirst({ where: { forkPointId: { not: null } }, orderBy: { id: "asc" } });
      await t.db.annotation.create({ data: label(attempt!.id, t.ctx.actor.id, "hang") });
      await expectExact();
      expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: attempt!.id } })).forkPointId).toBe(
        attempt!.forkPointId,
      );
      const other = await t.db.forkPoint.findFirstOrThrow({ where: { id: { not: attempt!.forkPointId! } }, orderBy: { id: "asc" } });
      await t.db.$executeRawUnsafe(`UPDATE "Trajectory" SET "forkPointId" = '${other.id}' WHERE "id" = '${attempt!.id}'`);
      await expectExact();
      await t.db.forkPoint.delete({ where: { id: other.id } });
      expect((await t.db.markedTrajectory.findUniqueOrThrow({ where: { trajectoryId: attempt!.id } })).forkPointId).toBeNull();
      await expectExact();
    },
  );

  it.skipIf(skip)(
    "the dataset, label and annotated facets under cell filters and searches equal those counted through Trajectory",
    async () => {
      const run = (await t.db.run.findFirstOrThrow()).id;
      // The commonest fork-point category among marked attempts, so the forkError queries have marks to count.
      const fork = await t.db.$queryRawUnsafe<{ c: string }[]>(`SELECT fp."errorCategory" AS "c" FROM "MarkedTrajectory" m
        JOIN "ForkPoint" fp ON fp."id" = m."forkPointId" WHERE fp."errorCategory" IS NOT NULL GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 1`);
      const forkCategory = fork[0]!.c;
      const queries = [
        { outcome: "failed" },
        { outcome: "passed", runId: run },
        { attempt: "no", warnings: "no" },
        { error: "hang" },
        // A forkError filter: the marks' fork points tested on MarkedTrajectory, with cell filters and a search too.
        { forkError: forkCategory },
        { forkError: [forkCategory, NO_ERROR], outcome: "failed" },
        { forkError: forkCategory, q: "pytest" },
        // A search tests the marks' trajectory ids directly (a word, a phrase), alone or with cell filters.
        { q: "pytest" },
        { q: '"pip install"' },
        { q: "pip", outcome: "failed" },
      ];
      let nonZero = 0;
      let searched = 0;
      for (const input of queries) {
        const cells = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse(input));
        // A step range every trajectory passes: the same rows, through the join to Trajectory (not a cell filter).
        const rows = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ ...input, steps: "0..100000" }));
        const pick = (f: typeof cells) => ({ datasetId: f!.datasetId, label: f!.label, annotated: f!.annotated });
        expect(pick(cells), JSON.stringify(input)).toEqual(pick(rows));
        nonZero += cells!.datasetId.length + cells!.label.length;
        if ("q" in input) searched += cells!.annotated.find((o) => o.value === "anyone")!.count;
      }
      expect(nonZero).toBeGreaterThan(0);
      expect(searched).toBeGreaterThan(0);
    },
  );
});
