// The trajectory browser's page under a forkError filter (analytics' drill-down), on SQLite and PostgreSQL. When its
// other filters are cell filters, the total comes from the forkError facet's own counts and the rows from either the
// matching fork points read as a set or the list order walked against them (whichever reads fewer rows): both must
// give exactly the trajectories whose fork point's category (an annotator's label, else the detected one) was chosen,
// in list order, with labelled fork points moved in and out of their detected category.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { labelForkCategory } from "../helpers/fork-labels.ts";
import { refreshFacetCellBounds } from "../../lib/db/repositories/browse/facet-cells.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { getTrajectoryFacets, listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { findTrajectoriesPage } from "../../lib/db/repositories/browse/trajectories.ts";
import { NO_ERROR, trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

describe.each(PROVIDERS)("the forkError page on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  /** Each attempt's category by the rule, and its list-order key. */
  let attempts: { id: string; category: string; importedAt: Date; reward: number | null; outcome: string }[];
  let common: string;
  let moved: { out: string; in: string };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 240, seed: 11 });
    const byCategory = await t.db.forkPoint.groupBy({
      by: ["errorCategory"],
      _count: { id: true },
      where: { errorCategory: { not: null } },
    });
    common = byCategory.sort((a, b) => b._count.id - a._count.id)[0]!.errorCategory!;
    const other = byCategory.find((c) => c.errorCategory !== common)!.errorCategory!;
    // One fork point of the common category labelled away from it, one of another category labelled into it.
    const out = await t.db.forkPoint.findFirstOrThrow({ where: { errorCategory: common, attempts: { some: {} } }, orderBy: { id: "asc" } });
    const into = await t.db.forkPoint.findFirstOrThrow({ where: { errorCategory: other, attempts: { some: {} } }, orderBy: { id: "asc" } });
    await labelForkCategory(t.db, t.ctx.actor.id, out, other);
    await labelForkCategory(t.db, t.ctx.actor.id, into, common);
    moved = { out: out.id, in: into.id };
    // A fork point with no category (generated data has none), holding two failed attempts.
    const two = await t.db.trajectory.findMany({
      where: { forkPointId: { notIn: [out.id, into.id] }, outcome: "failed" },
      take: 2,
      orderBy: { id: "asc" },
    });
    const bare = await t.db.forkPoint.create({ data: { trajectoryId: two[0]!.parentId!, stepIndex: 99_999, errorCategory: null } });
    await t.db.trajectory.updateMany({ where: { id: { in: two.map((a) => a.id) } }, data: { forkPointId: bare.id } });
    const labels = new Map([
      [out.id, other],
      [into.id, common],
    ]);
    const rows = await t.db.trajectory.findMany({
      where: { forkPointId: { not: null } },
      select: { id: true, importedAt: true, reward: true, outcome: true, forkPoint: { select: { id: true, errorCategory: true } } },
    });
    attempts = rows.map((r) => ({
      id: r.id,
      importedAt: r.importedAt,
      reward: r.reward,
      outcome: r.outcome,
      category: labels.get(r.forkPoint!.id) ?? r.forkPoint!.errorCategory ?? NO_ERROR,
    }));
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** Every page of `input` in turn, following the next-page cursor; the totals each page reported. */
  async function allPages(input: Record<string, unknown>) {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: unknown = undefined;
    for (let page = 1; page < 100; page++) {
      const r = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ ...input, page, ...(cursor ? { cursor } : {}) }));
      ids.push(...r.rows.map((row) => row.id));
      totals.add(r.total);
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    return { ids, totals: [...totals] };
  }

  const newestFirst = (a: (typeof attempts)[number], b: (typeof attempts)[number]) =>
    b.importedAt.getTime() - a.importedAt.getTime() || (a.id < b.id ? -1 : 1);

  it.skipIf(skip)(
    "a common category, walked or read as a set, lists exactly its attempts in list order with the facet's total",
    async () => {
      const want = attempts.filter((a) => a.category === common).sort(newestFirst);
      expect(want.length).toBeGreaterThan(10);
      expect(want.map((a) => a.id)).toContain((await t.db.trajectory.findFirstOrThrow({ where: { forkPointId: moved.in } })).id);
      const facets = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({}));
      expect(facets!.forkError.find((o) => o.value === common)?.count).toBe(want.length);
      // A small page walks (few rows per match), a full one reads the set; the step range forces the row-by-row count.
      for (const perPage of [2, 100]) {
        for (const extra of [{}, { steps: "0..100000" }]) {
          const got = await allPages({ forkError: common, perPage, ...extra });
          expect(got, `perPage ${perPage} ${JSON.stringify(extra)}`).toEqual({ ids: want.map((a) => a.id), totals: [want.length] });
        }
      }
    },
  );

  it.skipIf(skip)("two categories, another filter, another sort and a deep offset agree with the rule", async () => {
    const second = attempts.find((a) => a.category !== common && a.category !== NO_ERROR)!.category;
    const chosen = new Set([common, second]);
    const want = attempts.filter((a) => chosen.has(a.category) && a.outcome === "failed");
    expect(new Set(want.map((a) => a.category))).toEqual(chosen);
    const byReward = [...want].sort((a, b) => (a.reward ?? Infinity) - (b.reward ?? Infinity) || (a.id < b.id ? -1 : 1));
    for (const perPage of [1, 50]) {
      const got = await allPages({ forkError: [...chosen], outcome: "failed", sort: "reward.asc", perPage });
      expect(got, `perPage ${perPage}`).toEqual({ ids: byReward.map((a) => a.id), totals: [want.length] });
    }
    // Page 3 by offset (no cursor), counted from the nearer end when deep.
    const third = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ forkError: common, perPage: 3, page: 3 }));
    const all = attempts.filter((a) => a.category === common).sort(newestFirst);
    expect(third.rows.map((r) => r.id)).toEqual(all.slice(6, 9).map((a) => a.id));
    expect(third.total).toBe(all.length);
  });

  it.skipIf(skip)("a category only a label gives, and one nobody has, count and list what the rule says", async () => {
    const labelledAway = attempts.filter((a) => a.category !== common && a.category !== NO_ERROR).map((a) => a.category);
    const other = labelledAway.find((c) => attempts.some((a) => a.category === c))!;
    const want = attempts.filter((a) => a.category === other).sort(newestFirst);
    expect(await allPages({ forkError: other, perPage: 1 })).toEqual({ ids: want.map((a) => a.id), totals: [want.length] });
    expect(await allPages({ forkError: "no-such-category", perPage: 5 })).toEqual({ ids: [], totals: [0] });
    // Fork points without a category, alone and beside a category.
    const bare = attempts.filter((a) => a.category === NO_ERROR).sort(newestFirst);
    expect(bare).toHaveLength(2);
    expect(await allPages({ forkError: NO_ERROR, perPage: 1 })).toEqual({ ids: bare.map((a) => a.id), totals: [2] });
    const withOther = attempts.filter((a) => a.category === NO_ERROR || a.category === other).sort(newestFirst);
    expect(await allPages({ forkError: [NO_ERROR, other], perPage: 2 })).toEqual({
      ids: withOther.map((a) => a.id),
      totals: [withOther.length],
    });
  });

  it.skipIf(skip)("every page by a deep offset, from the nearer end, with one or two categories and another filter", async () => {
    const second = attempts.find((a) => a.category !== common && a.category !== NO_ERROR)!.category;
    for (const input of [{ forkError: common }, { forkError: [common, second], outcome: "failed" }, { forkError: [second, NO_ERROR] }]) {
      const chosen = new Set([input.forkError].flat());
      const want = attempts
        .filter((a) => chosen.has(a.category) && (!("outcome" in input) || a.outcome === input.outcome))
        .sort(newestFirst)
        .map((a) => a.id);
      const perPage = want.length >= 15 ? 3 : 1;
      const pages = Math.ceil(want.length / perPage);
      expect(pages).toBeGreaterThanOrEqual(3);
      const got: string[] = [];
      for (let page = 1; page <= pages; page++) {
        // A deep offset from the second page on (no cursor): counted, then walked from whichever end is nearer.
        const q = trajectoryListQuerySchema.parse({ ...input, perPage, page });
        const r = await findTrajectoriesPage(t.db, q, t.ctx.actor.id, null, perPage);
        expect(r.total, `page ${page}`).toBe(want.length);
        got.push(...r.rows.map((row) => row.id));
      }
      expect(got, JSON.stringify(input)).toEqual(want);
    }
  });

  // Last: it changes rewards and durations.
  it.skipIf(skip)("the facets under a forkError filter, summed from the cells, equal those counted over the rows", async () => {
    // Attempts labelled out of the common category and into it hold the extremes: a cell's stored bound still holds the
    // first, the second is in no cell of the category.
    const [outAttempt, inAttempt] = [
      await t.db.trajectory.findFirstOrThrow({ where: { forkPointId: moved.out } }),
      await t.db.trajectory.findFirstOrThrow({ where: { forkPointId: moved.in } }),
    ];
    await t.db.trajectory.update({ where: { id: outAttempt.id }, data: { reward: 1e6, durationMs: 9e8 } });
    await t.db.trajectory.update({ where: { id: inAttempt.id }, data: { reward: -1e6, durationMs: 1 } });
    // Both attempts marked (a label each): the dataset, label and annotated facets see the fork points moved across too.
    const schema = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
    for (const a of [outAttempt, inAttempt])
      await t.db.annotation.create({
        data: {
          schemaId: schema.id,
          annotatorId: t.ctx.actor.id,
          targetType: "trajectory",
          targetKey: `trajectory:${a.id}`,
          trajectoryId: a.id,
          value: "marked-attempt",
        },
      });
    // Every cell's stored bounds exact again, so the attempt labelled out is read past its cell's stored bound.
    await refreshFacetCellBounds(t.db);
    expect(await t.db.trajectoryFacetCell.count({ where: { boundsStale: 1 } })).toBe(0);
    const other = (await t.db.annotation.findFirstOrThrow({ where: { forkPointId: moved.out } })).value;
    const run = (await t.db.run.findFirstOrThrow({ orderBy: { id: "asc" } })).id;
    const queries = [
      { forkError: common },
      { forkError: other },
      { forkError: NO_ERROR },
      { forkError: [common, NO_ERROR], outcome: "failed" },
      { forkError: common, attempt: "yes", runId: run },
      { forkError: [common, other], warnings: "no", error: NO_ERROR },
      { forkError: "no-such-category" },
    ];
    for (const input of queries) {
      const cells = trajectoryListQuerySchema.parse(input);
      // A step range every trajectory passes: the same rows, counted the row-by-row way (not a cell dimension).
      const rows = trajectoryListQuerySchema.parse({ ...input, steps: "0..100000" });
      const [a, b] = [await getTrajectoryFacets(t.ctx, cells), await getTrajectoryFacets(t.ctx, rows)];
      expect({ ...a, steps: null }, JSON.stringify(input)).toEqual({ ...b, steps: null });
    }
    const uncategorized = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ forkError: NO_ERROR }));
    expect(uncategorized!.attempt.find((o) => o.value === "yes")?.count).toBe(2);
    const withCommon = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ forkError: common }));
    expect(withCommon!.reward.min).toBe(-1e6);
    expect(withCommon!.reward.max).toBeLessThan(1e6);
    expect(withCommon!.duration.max).toBeLessThan(9e5);
    const withOther = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ forkError: other }));
    expect(withOther!.reward.max).toBe(1e6);
    // Each marked attempt counted under its label's category only.
    expect(withCommon!.label.find((o) => o.value === "marked-attempt")?.count).toBe(1);
    expect(withOther!.label.find((o) => o.value === "marked-attempt")?.count).toBe(1);
  });
});
