// Distributions on SQLite and PostgreSQL, on the analytics fixture (tests/helpers/analytics-fixture.ts) with step
// counts, first-error steps and rewards set here, so every bucket has a hand-computed count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../helpers/test-db.ts";
import { seedAnalyticsFixture, type AnalyticsFixture } from "../../helpers/analytics-fixture.ts";
import { getDistributions } from "../../../lib/services/analytics/get-distributions.ts";
import { listTrajectories } from "../../../lib/services/browse/browse-trajectories.ts";
import { EMPTY_ANALYTICS_FILTER, type AnalyticsFilter } from "../../../lib/validation/analytics-params.ts";
import { firstErrorHref, groupRewardHref, recoveredHref, stepsHref } from "../../../lib/validation/analytics-drill-down.ts";
import { paramsFromSearch, trajectoryListQuerySchema } from "../../../lib/validation/search-params/index.ts";

const f = (patch: Partial<AnalyticsFilter> = {}): AnalyticsFilter => ({ ...EMPTY_ANALYTICS_FILTER, ...patch });
// The fixture writes rows in a fixed order with contentHash fixture-0 … fixture-23: 0–5 run A's rollouts, 6–10 run
// B's, 11–12 run C's, 13 run D's; then attempts 14–17 at FP1, 18–20 at FP2, 21–22 at FP3 (unknown outcome), 23 at FP5.
const hashes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `fixture-${from + i}`);

describe.each(PROVIDERS)("analytics distributions on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let fx: AnalyticsFixture;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    fx = await seedAnalyticsFixture(t.db, t.ctx.actor.id);
    await t.db.trajectory.updateMany({ where: { contentHash: { in: hashes(0, 5) } }, data: { stepCount: 3 } });
    await t.db.trajectory.updateMany({ where: { contentHash: { in: hashes(14, 17) } }, data: { stepCount: 25 } });
    await t.db.trajectory.updateMany({ where: { contentHash: { in: ["fixture-1", "fixture-2"] } }, data: { firstErrorStep: 2 } });
    await t.db.trajectory.updateMany({ where: { contentHash: "fixture-14" }, data: { firstErrorStep: 7 } });
    // FP3's attempts have no verdict but the same reward: a sibling group with no reward spread.
    await t.db.trajectory.updateMany({ where: { contentHash: { in: hashes(21, 22) } }, data: { reward: 0.5 } });
  });
  afterAll(async () => {
    await t?.drop();
  });

  const rowsAt = async (href: string) => {
    const q = trajectoryListQuerySchema.parse({ ...paramsFromSearch(new URL(href, "http://x").searchParams), perPage: 100 });
    return (await listTrajectories(t.ctx, q)).total;
  };

  it.skipIf(skip)("buckets trajectory length and first-error step in the database", async () => {
    const d = await getDistributions(t.ctx, f());
    // 0..25 steps in width-5 buckets.
    expect(d.length.map((b) => [b.lo, b.hi])).toEqual([
      [0, 4],
      [5, 9],
      [10, 14],
      [15, 19],
      [20, 24],
      [25, 29],
    ]);
    expect(d.length.map((b) => [b.rollouts, b.attempts])).toEqual([
      [14, 6],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 4],
    ]);
    expect(d.firstError.map((b) => b.lo)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(d.firstError[0]).toMatchObject({ rollouts: 2, attempts: 0 });
    expect(d.firstError[5]).toMatchObject({ rollouts: 0, attempts: 1 });
    expect(d.firstError.slice(1, 5).every((b) => b.rollouts + b.attempts === 0)).toBe(true);
    expect(d.withoutError).toBe(21);
  });

  it.skipIf(skip)("counts attempts needed to recover per fork point, never-recovered included", async () => {
    const d = await getDistributions(t.ctx, f());
    // FP1 passes at its first attempt, FP2 at its third, FP5 never; FP3 has no known outcome, FP4 no attempt.
    expect(d.attemptsToRecover).toEqual([
      { attempts: 1, forkPoints: 1 },
      { attempts: 3, forkPoints: 1 },
      { attempts: null, forkPoints: 1 },
    ]);
  });

  it.skipIf(skip)("gives the mean reward of each sibling group and flags groups without spread", async () => {
    const d = await getDistributions(t.ctx, f());
    // Means: FP5 0, FP2 1/3, FP1 0.5, FP3 0.5 (flat) over 0..0.5 in width-0.05 buckets.
    expect(d.siblingReward).toHaveLength(10);
    expect(d.siblingReward[0]).toMatchObject({ lo: 0, hi: 0.05, groups: 1, flatGroups: 0 });
    expect(d.siblingReward[6]).toMatchObject({ lo: 0.3, hi: 0.35, groups: 1, flatGroups: 0 });
    expect(d.siblingReward[9]).toMatchObject({ lo: 0.45, hi: 0.5, groups: 2, flatGroups: 1 });
    expect(d.siblingReward.reduce((s, b) => s + b.groups, 0)).toBe(4);
  });

  it.skipIf(skip)("applies the analytics filter", async () => {
    const c = await getDistributions(t.ctx, f({ runId: [fx.runs.C] }));
    expect(c.length).toEqual([{ lo: 0, hi: 0, rollouts: 2, attempts: 1 }]);
    expect(c.firstError).toEqual([]);
    expect(c.withoutError).toBe(3);
    expect(c.attemptsToRecover).toEqual([{ attempts: null, forkPoints: 1 }]);
    expect(c.siblingReward).toEqual([{ lo: 0, hi: 0, groups: 1, flatGroups: 0 }]);
    const none = await getDistributions(t.ctx, f({ checkpoint: ["step-999"] }));
    expect(none).toMatchObject({ length: [], firstError: [], withoutError: 0, attemptsToRecover: [], siblingReward: [] });
  });

  it.skipIf(skip)("drills down from each length bucket to exactly its trajectories", async () => {
    for (const filter of [f(), f({ method: ["base"], category: ["build"] })]) {
      const d = await getDistributions(t.ctx, filter);
      expect(d.length.length).toBeGreaterThan(0);
      for (const b of d.length) {
        expect(await rowsAt(stepsHref(d, b.lo, b.hi, { attempts: false }))).toBe(b.rollouts);
        expect(await rowsAt(stepsHref(d, b.lo, b.hi, { attempts: true }))).toBe(b.attempts);
      }
    }
  });

  it.skipIf(skip)("drills down from first-error, attempts-to-recover and sibling-reward bars to exactly their rows", async () => {
    const filters = [f(), f({ runId: [fx.runs.A] }), f({ runId: [fx.runs.C] }), f({ method: ["base"], category: ["build"] })];
    let checked = 0;
    for (const filter of filters) {
      const d = await getDistributions(t.ctx, filter);
      for (const b of d.firstError) {
        expect(await rowsAt(firstErrorHref(d, b.lo, b.hi, { attempts: false }))).toBe(b.rollouts);
        expect(await rowsAt(firstErrorHref(d, b.lo, b.hi, { attempts: true }))).toBe(b.attempts);
        checked++;
      }
      for (const r of d.attemptsToRecover) {
        expect(await rowsAt(recoveredHref(d, r.attempts))).toBe(r.forkPoints);
        checked++;
      }
      for (const [i, b] of d.siblingReward.entries()) {
        const last = i === d.siblingReward.length - 1;
        expect(await rowsAt(groupRewardHref(d, b.lo, b.hi, { last, spread: true }))).toBe(b.groups - b.flatGroups);
        expect(await rowsAt(groupRewardHref(d, b.lo, b.hi, { last, spread: false }))).toBe(b.flatGroups);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // Known answers: first errors at step 2 are two original rollouts; FP2 recovered at its third attempt (fixture-20);
    // FP5 never (its only attempt, fixture-23); the flat 0.45–0.5 group is FP3 (its first rewarded attempt, fixture-21).
    const d = await getDistributions(t.ctx, f());
    const hashesAt = async (href: string) => {
      const q = trajectoryListQuerySchema.parse({ ...paramsFromSearch(new URL(href, "http://x").searchParams), perPage: 100 });
      const ids = (await listTrajectories(t.ctx, q)).rows.map((r) => r.id);
      return (await t.db.trajectory.findMany({ where: { id: { in: ids } }, select: { contentHash: true } }))
        .map((r) => r.contentHash)
        .sort();
    };
    expect(await rowsAt(firstErrorHref(d, 2, 2, { attempts: false }))).toBe(2);
    expect(await hashesAt(recoveredHref(d, 3))).toEqual(["fixture-20"]);
    expect(await hashesAt(recoveredHref(d, null))).toEqual(["fixture-23"]);
    expect(await hashesAt(groupRewardHref(d, 0.45, 0.5, { last: true, spread: false }))).toEqual(["fixture-21"]);
  });

  it.skipIf(skip)("is readable by a viewer", async () => {
    const viewer = await t.as("viewer-distributions", "viewer");
    await expect(getDistributions(viewer, f())).resolves.toMatchObject({ attemptsToRecover: expect.any(Array) });
  });
});
