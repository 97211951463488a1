// The trajectory browser against generated data, on SQLite and PostgreSQL: filters, facets, multi-sort, keyset and
// offset paging, "select all matching". Expectations are computed from the generator's output, not hard-coded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import {
  getTrajectoryFacets,
  listTrajectories,
  selectMatchingTrajectories,
  type TrajectoryList,
} from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";
import { findMatchingTrajectoryIds, findTrajectoriesPage } from "../../lib/db/repositories/browse/trajectories.ts";
import type { ServiceContext } from "../../lib/services/context.ts";

const SEED = { count: 90, seed: 11 };
const generated = [...generateTrajectories(SEED)];
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);

async function allPages(ctx: ServiceContext, input: Record<string, unknown>, perPage: number): Promise<TrajectoryList["rows"]> {
  const rows: TrajectoryList["rows"] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const r = await listTrajectories(ctx, q({ ...input, perPage, page, cursor }));
    rows.push(...r.rows);
    if (!r.nextCursor) return rows;
    cursor = r.nextCursor;
  }
}

describe.each(PROVIDERS)("trajectory browser on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let ids: Map<string, string>;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, SEED);
    const rows = await t.db.trajectory.findMany({ select: { id: true, externalId: true } });
    ids = new Map(rows.map((r) => [r.externalId!, r.id]));
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("filters on outcome, model, task category, steps and reward exactly like the generated data", async () => {
    const model = generated[0]!.run.model!;
    const category = generated[0]!.task.category!;
    const want = generated.filter(
      (g) =>
        g.outcome === "failed" && g.run.model === model && g.task.category === category && g.steps.length >= 12 && g.steps.length <= 30,
    );
    const page = await listTrajectories(t.ctx, q({ outcome: "failed", model, category, steps: "12..30", reward: "..0.5", perPage: 100 }));
    expect(page.total).toBe(want.length);
    expect(new Set(page.rows.map((r) => r.id))).toEqual(new Set(want.map((g) => ids.get(g.id!))));
    expect(page.rows.every((r) => r.outcome === "failed" && r.model === model && r.taskCategory === category)).toBe(true);
  });

  it.skipIf(skip)("finds recovery attempts and trajectories with fork points", async () => {
    const attempts = generated.filter((g) => g.fork);
    const parents = new Set(attempts.map((g) => g.fork!.parentId));
    expect((await listTrajectories(t.ctx, q({ attempt: "yes" }))).total).toBe(attempts.length);
    expect((await listTrajectories(t.ctx, q({ attempt: "no" }))).total).toBe(generated.length - attempts.length);
    const withForks = await listTrajectories(t.ctx, q({ forks: "yes", perPage: 100 }));
    expect(new Set(withForks.rows.map((r) => r.id))).toEqual(new Set([...parents].map((p) => ids.get(p))));
    expect(withForks.rows.every((r) => r.attemptCount > 0 && r.recoveryRate !== null)).toBe(true);
  });

  it.skipIf(skip)("sorts on several columns, NULLs last, with the id as tie-breaker", async () => {
    const rows = (await listTrajectories(t.ctx, q({ sort: "outcome,stepCount", dir: "asc,desc", perPage: 100 }))).rows;
    expect(rows).toHaveLength(generated.length);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.outcome <= b.outcome).toBe(true);
      if (a.outcome === b.outcome) expect(a.stepCount >= b.stepCount).toBe(true);
    }
    const byRecovery = (await listTrajectories(t.ctx, q({ sort: "recoveryRate", dir: "desc", perPage: 100 }))).rows;
    const firstNull = byRecovery.findIndex((r) => r.recoveryRate === null);
    expect(firstNull).toBeGreaterThan(0);
    expect(byRecovery.slice(firstNull).every((r) => r.recoveryRate === null)).toBe(true);
  });

  it.skipIf(skip)("pages by keyset and by offset to the same rows, forwards and backwards", async () => {
    for (const sort of [{ sort: "reward", dir: "desc" }, { sort: "task,durationMs", dir: "asc,asc" }, {}]) {
      const whole = (await listTrajectories(t.ctx, q({ ...sort, perPage: 100 }))).rows.map((r) => r.id);
      expect((await allPages(t.ctx, sort, 7)).map((r) => r.id)).toEqual(whole);
      const byOffset: string[] = [];
      for (let page = 1; page <= Math.ceil(whole.length / 7); page++)
        byOffset.push(...(await listTrajectories(t.ctx, q({ ...sort, perPage: 7, page }))).rows.map((r) => r.id));
      expect(byOffset).toEqual(whole);
      // Backwards from the last page with "before" cursors.
      const last = Math.ceil(whole.length / 7);
      let r = await listTrajectories(t.ctx, q({ ...sort, perPage: 7, page: last }));
      const back = [...r.rows.map((x) => x.id)];
      for (let page = last - 1; r.prevCursor; page--) {
        r = await listTrajectories(t.ctx, q({ ...sort, perPage: 7, page, cursor: r.prevCursor }));
        back.unshift(...r.rows.map((x) => x.id));
      }
      expect(back).toEqual(whole);
      // Deep offsets without a cursor are counted from the nearer end (threshold lowered to reach it here).
      const fromEnd: string[] = [];
      for (let page = 1; page <= last; page++)
        fromEnd.push(
          ...(await findTrajectoriesPage(t.db, q({ ...sort, perPage: 7, page }), t.ctx.actor.id, null, 0)).rows.map((x) => x.id),
        );
      expect(fromEnd).toEqual(whole);
    }
  });

  it.skipIf(skip)("counts facets with every other filter applied, and each count is what that filter then lists", async () => {
    const model = generated[0]!.run.model!;
    const category = generated[0]!.task.category!;
    for (const base of [
      { outcome: "failed", forks: "no" },
      { model, category, steps: "8..", attempt: "no" },
      { error: "none", reward: "0.5.." },
    ]) {
      const facets = (await getTrajectoryFacets(t.ctx, q(base)))!;
      const keys = ["runId", "model", "taskId", "category", "outcome", "error", "forks", "attempt"] as const;
      for (const key of keys) {
        for (const o of facets[key]) {
          // Picking a value of a facet replaces that facet's own filter and keeps all others.
          expect([key, o.value, (await listTrajectories(t.ctx, q({ ...base, [key]: o.value }))).total]).toEqual([key, o.value, o.count]);
        }
      }
      const all = await listTrajectories(t.ctx, q({ ...base, perPage: 100 }));
      const stepCounts = all.rows.map((r) => r.stepCount);
      if ("steps" in base) {
        // A set range gets the bounds of everything else the filters match (its own filter left out).
        const without = (await listTrajectories(t.ctx, q({ ...base, steps: undefined, perPage: 100 }))).rows.map((r) => r.stepCount);
        expect(facets.steps).toEqual({ min: Math.min(...without), max: Math.max(...without) });
      } else if (stepCounts.length) {
        expect(facets.steps).toEqual({ min: Math.min(...stepCounts), max: Math.max(...stepCounts) });
      }
    }
  });

  it.skipIf(skip)("filters on who annotated and on the latest version of a dataset", async () => {
    const [a, b, c, d] = [...ids.values()].sort();
    const schema = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
    const other = await t.as("olga", "annotator");
    const label = (annotatorId: string, trajectoryId: string) => ({
      schemaId: schema.id,
      annotatorId,
      targetType: "trajectory",
      targetKey: `traj:${trajectoryId}`,
      trajectoryId,
      value: "hang",
    });
    await t.db.annotation.createMany({
      data: [label(t.ctx.actor.id, a!), label(t.ctx.actor.id, b!), label(other.actor.id, b!), label(other.actor.id, c!)],
    });
    expect((await listTrajectories(t.ctx, q({ annotated: "me" }))).total).toBe(2);
    expect((await listTrajectories(t.ctx, q({ annotated: "anyone" }))).total).toBe(3);
    expect((await listTrajectories(t.ctx, q({ annotated: "nobody" }))).total).toBe(generated.length - 3);
    expect((await listTrajectories(other, q({ annotated: "me" }))).total).toBe(2);
    const facets = (await getTrajectoryFacets(t.ctx, q({})))!;
    expect(Object.fromEntries(facets.annotated.map((o) => [o.value, o.count]))).toEqual({ me: 2, anyone: 3, nobody: generated.length - 3 });

    const ds = await t.db.dataset.create({ data: { name: "recovery-v1", createdById: t.ctx.actor.id } });
    for (const [version, members] of [
      [1, [a, b, c]],
      [2, [b, c, d]],
    ] as const) {
      const v = await t.db.datasetVersion.create({
        data: { datasetId: ds.id, version, contentHash: `h${version}`, itemCount: 3, createdById: t.ctx.actor.id },
      });
      await t.db.datasetItem.createMany({
        data: members.map((trajectoryId, position) => ({
          datasetVersionId: v.id,
          position,
          trajectoryId: trajectoryId!,
          kind: "trajectory",
        })),
      });
    }
    const inDataset = await listTrajectories(t.ctx, q({ datasetId: ds.id }));
    expect(new Set(inDataset.rows.map((r) => r.id))).toEqual(new Set([b, c, d]));
    expect((await getTrajectoryFacets(t.ctx, q({})))!.datasetId).toEqual([{ value: ds.id, label: "recovery-v1", detail: null, count: 3 }]);

    // Filtered, the dataset, "annotated" and label facets count the marked trajectories that pass every other filter:
    // each count is what picking that value then lists, with the facet's own filter set or not.
    const outcomeOf = new Map(
      await t.db.trajectory.findMany({ select: { id: true, outcome: true } }).then((r) => r.map((x) => [x.id, x.outcome])),
    );
    const outcome = outcomeOf.get(b!)!;
    for (const base of [{ outcome }, { outcome, annotated: "me" }, { outcome, datasetId: ds.id, label: "hang" }, { annotated: "nobody" }]) {
      const facets = (await getTrajectoryFacets(t.ctx, q(base)))!;
      const counted = [
        ...facets.datasetId.map((o) => ["datasetId", o.value, o.count] as const),
        ...facets.annotated.map((o) => ["annotated", o.value, o.count] as const),
        ...facets.label.map((o) => ["label", o.value, o.count] as const),
      ];
      expect(counted.some(([, , n]) => n > 0)).toBe(true);
      for (const [key, value, count] of counted)
        expect([base, key, value, (await listTrajectories(t.ctx, q({ ...base, [key]: value }))).total]).toEqual([base, key, value, count]);
    }
  });

  it.skipIf(skip)("selects every matching trajectory, not only the page", async () => {
    const want = generated.filter((g) => g.outcome === "failed").map((g) => ids.get(g.id!));
    const sel = await selectMatchingTrajectories(t.ctx, q({ outcome: "failed", perPage: 5, page: 3 }));
    expect(sel.total).toBe(want.length);
    expect(sel.truncated).toBe(false);
    expect(new Set(sel.ids)).toEqual(new Set(want));
    // In list order.
    const listed = await allPages(t.ctx, { outcome: "failed" }, 25);
    expect(sel.ids).toEqual(listed.map((r) => r.id));
    // Past the limit: the first `limit` ids in list order, and the true total (counted only in this case).
    const capped = await findMatchingTrajectoryIds(t.db, q({ outcome: "failed" }), t.ctx.actor.id, null, 7);
    expect(capped).toEqual({ ids: sel.ids.slice(0, 7), total: want.length });
    const exact = await findMatchingTrajectoryIds(t.db, q({ outcome: "failed" }), t.ctx.actor.id, null, want.length);
    expect(exact).toEqual({ ids: sel.ids, total: want.length });
    // In list order under a multi-column sort with a nullable column too.
    const sorted = { sort: "reward,stepCount", dir: "asc,desc" };
    const bySort = await selectMatchingTrajectories(t.ctx, q(sorted));
    expect(bySort.ids).toEqual((await allPages(t.ctx, sorted, 25)).map((r) => r.id));
    expect(bySort.ids).not.toEqual(sel.ids);
  });

  it.skipIf(skip)("ignores a page beyond the end instead of failing", async () => {
    const r = await listTrajectories(t.ctx, q({ page: 999, perPage: 10 }));
    expect(r.rows).toEqual([]);
    expect(r.total).toBe(generated.length);
  });
});
