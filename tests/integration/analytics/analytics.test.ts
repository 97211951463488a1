// Analytics on SQLite and PostgreSQL against a hand-built data set with known answers (tests/helpers/analytics-fixture.ts):
// recovery by fork-point category (labelled wins over detected, zero-attempt and all-unknown fork points), pass@k by
// checkpoint, run comparison (incl. runs with no shared task), task health, and drill-down links that match exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../helpers/test-db.ts";
import { seedAnalyticsFixture, type AnalyticsFixture } from "../../helpers/analytics-fixture.ts";
import { getRecoveryAnalytics } from "../../../lib/services/analytics/get-recovery-analytics.ts";
import { getTrainingProgress } from "../../../lib/services/analytics/get-training-progress.ts";
import { compareRuns } from "../../../lib/services/analytics/compare-runs.ts";
import { getTaskHealth } from "../../../lib/services/analytics/get-task-health.ts";
import { getTrajectoryFacets, listTrajectories } from "../../../lib/services/browse/browse-trajectories.ts";
import { EMPTY_ANALYTICS_FILTER, type AnalyticsFilter } from "../../../lib/validation/analytics-params.ts";
import { attemptsHref, rolloutsHref } from "../../../lib/validation/analytics-drill-down.ts";
import { paramsFromSearch, trajectoryListQuerySchema } from "../../../lib/validation/search-params/index.ts";

const f = (patch: Partial<AnalyticsFilter> = {}): AnalyticsFilter => ({ ...EMPTY_ANALYTICS_FILTER, ...patch });

describe.each(PROVIDERS)("analytics on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let fx: AnalyticsFixture;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    fx = await seedAnalyticsFixture(t.db, t.ctx.actor.id);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const rowsAt = async (href: string) => {
    const q = trajectoryListQuerySchema.parse({ ...paramsFromSearch(new URL(href, "http://x").searchParams), perPage: 100 });
    return (await listTrajectories(t.ctx, q)).total;
  };

  it.skipIf(skip)("computes recovery per category with labels winning over detection", async () => {
    const r = await getRecoveryAnalytics(t.ctx, f());
    expect(r.categories.map((c) => c.category)).toEqual(["timeout", "command-error", "missing-dependency", null]);
    const by = new Map(r.categories.map((c) => [c.category, c]));
    expect(by.get("command-error")).toMatchObject({
      forkPoints: 1,
      labelledForkPoints: 0,
      evaluatedForkPoints: 1,
      attempts: 4,
      successfulAttempts: 2,
      recoveredForkPoints: 1,
      recoveryRate: 1,
      meanAttemptsToFirstSuccess: 1,
    });
    expect(by.get("command-error")!.recoveryAtK["1"]).toBeCloseTo(0.5, 12);
    expect(by.get("command-error")!.recoveryAtK["2"]).toBeCloseTo(5 / 6, 12);
    expect(by.get("command-error")!.recoveryAtK["4"]).toBe(1);
    expect(by.get("command-error")!.recoveryAtK["8"]).toBeNull();
    expect(by.get("missing-dependency")).toMatchObject({
      forkPoints: 1,
      labelledForkPoints: 1,
      attempts: 3,
      successfulAttempts: 1,
      recoveredForkPoints: 1,
      meanAttemptsToFirstSuccess: 3,
    });
    expect(by.get("missing-dependency")!.recoveryAtK["1"]).toBeCloseTo(1 / 3, 12);
    expect(by.get("missing-dependency")!.recoveryAtK["2"]).toBeCloseTo(2 / 3, 12);
    expect(by.get("missing-dependency")!.recoveryAtK["4"]).toBeNull();
    // One fork point never attempted, one whose attempts all have unknown outcomes: counted, but no rate.
    expect(by.get("timeout")).toMatchObject({
      forkPoints: 2,
      evaluatedForkPoints: 0,
      attempts: 2,
      successfulAttempts: 0,
      recoveredForkPoints: 0,
      recoveryRate: null,
      recoveryRateCi: null,
      meanAttemptsToFirstSuccess: null,
    });
    expect(by.get("timeout")!.recoveryAtK).toEqual({ "1": null, "2": null, "4": null, "8": null });
    expect(by.get(null)).toMatchObject({
      forkPoints: 1,
      attempts: 1,
      recoveryRate: 0,
      recoveryAtK: { "1": 0, "2": null, "4": null, "8": null },
    });
    expect(r.overall).toMatchObject({
      forkPoints: 5,
      labelledForkPoints: 1,
      evaluatedForkPoints: 3,
      attempts: 10,
      successfulAttempts: 3,
      recoveredForkPoints: 2,
      meanAttemptsToFirstSuccess: 2,
    });
    expect(r.overall.recoveryRate).toBeCloseTo(2 / 3, 12);
    expect(r.overall.recoveryAtK["1"]).toBeCloseTo(5 / 18, 12);
    expect(r.overall.recoveryAtK["2"]).toBeCloseTo(0.75, 12);
    expect(r.overall.recoveryAtK["4"]).toBe(1);
    expect(r.drillRunIds).toBeNull();
  });

  it.skipIf(skip)("filters by run, training method and task category", async () => {
    const a = await getRecoveryAnalytics(t.ctx, f({ runId: [fx.runs.A] }));
    expect(a.overall).toMatchObject({ forkPoints: 3, attempts: 9, recoveredForkPoints: 2, evaluatedForkPoints: 2, recoveryRate: 1 });
    const b = await getRecoveryAnalytics(t.ctx, f({ runId: [fx.runs.B] }));
    expect(b.categories).toHaveLength(1);
    expect(b.categories[0]).toMatchObject({ category: "timeout", forkPoints: 1, attempts: 0, recoveryRate: null });
    const baseData = await getRecoveryAnalytics(t.ctx, f({ method: ["base"], category: ["data"] }));
    expect(baseData.categories).toEqual([expect.objectContaining({ category: null, forkPoints: 1, attempts: 1, recoveryRate: 0 })]);
    expect(new Set(baseData.drillRunIds)).toEqual(new Set([fx.runs.A, fx.runs.C, fx.runs.D]));
    const none = await getRecoveryAnalytics(t.ctx, f({ checkpoint: ["step-999"] }));
    expect(none.categories).toEqual([]);
    expect(none.overall).toMatchObject({ forkPoints: 0, attempts: 0, recoveryRate: null });
  });

  it.skipIf(skip)("drills down to exactly the attempts behind each figure", async () => {
    for (const filter of [f(), f({ runId: [fx.runs.A] }), f({ method: ["base"], category: ["data"] })]) {
      const r = await getRecoveryAnalytics(t.ctx, filter);
      for (const c of r.categories) {
        expect(await rowsAt(attemptsHref(r, c.category))).toBe(c.attempts);
        expect(await rowsAt(attemptsHref(r, c.category, { passed: true }))).toBe(c.successfulAttempts);
      }
    }
  });

  it.skipIf(skip)("offers the fork-point category as a facet of the trajectory table with the same counts", async () => {
    const facets = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({}));
    const counts = Object.fromEntries(facets!.forkError.map((o) => [o.value, o.count]));
    expect(counts).toEqual({ "command-error": 4, "missing-dependency": 3, timeout: 2, none: 1 });
    const inA = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({ runId: fx.runs.A, forkError: "timeout" }));
    // A facet ignores its own filter: the other categories stay listed with their counts.
    expect(Object.fromEntries(inA!.forkError.map((o) => [o.value, o.count]))).toEqual({
      "command-error": 4,
      "missing-dependency": 3,
      timeout: 2,
    });
  });

  it.skipIf(skip)("gives pass@k by checkpoint per model and method from original rollouts only", async () => {
    const { series } = await getTrainingProgress(t.ctx, f());
    expect(series.map((s) => s.key)).toEqual(["m1 · base", "m1 · grpo", "m2 · base"]);
    const base = series[0]!;
    expect(base.points.map((p) => p.checkpoint)).toEqual(["step-100", "step-200"]);
    expect(base.points[0]).toMatchObject({ tasks: 3, rollouts: 5, passed: 2, step: 100 });
    expect(base.points[0]!.passAtK["1"]).toBeCloseTo(0.5, 12);
    expect(base.points[0]!.passAtK["2"]).toBeCloseTo(0.5, 12);
    expect(base.points[1]).toMatchObject({ tasks: 1, rollouts: 1, passed: 0, passAtK: { "1": 0, "2": null } });
    expect(series[1]!.points[0]!.passAtK["1"]).toBeCloseTo(5 / 6, 12);
    expect(series[2]!.points[0]!.passAtK["1"]).toBe(0);
    expect(await rowsAt(rolloutsHref({ filter: f(), drillRunIds: null }, fx.runs.A))).toBe(6);
  });

  it.skipIf(skip)("compares runs against a baseline, paired on shared tasks", async () => {
    const cmp = await compareRuns(t.ctx, [fx.runs.A, fx.runs.B, fx.runs.C], 1, f());
    const [a, b, c] = cmp.runs;
    expect(a).toMatchObject({ tasks: 3, rollouts: 5, passed: 2, vsBaseline: null });
    expect(a!.passRate).toBeCloseTo(0.4, 12);
    expect(b).toMatchObject({ tasks: 3, rollouts: 5, passed: 4 });
    expect(b!.vsBaseline!.sharedTasks).toBe(3);
    expect(b!.vsBaseline!.passRate!.diff).toBeCloseTo(0.4, 12);
    expect(b!.vsBaseline!.passRate!.ci.lo).toBeLessThan(0.4);
    expect(b!.vsBaseline!.passAtK).toMatchObject({ tasks: 3, meanA: 0.5 });
    expect(b!.vsBaseline!.passAtK!.diff).toBeCloseTo(1 / 3, 12);
    // B's only fork point was never attempted: no recovery rate, so no difference either.
    expect(b!.vsBaseline!.recoveryRate).toBeNull();
    expect(c!.vsBaseline).toMatchObject({ sharedTasks: 0, passAtK: null });
    await expect(compareRuns(t.ctx, [fx.runs.A, "nope"], 1, f())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it.skipIf(skip)("flags unhealthy tasks", async () => {
    const h = await getTaskHealth(t.ctx, f());
    const by = new Map(h.tasks.map((r) => [r.name, r]));
    expect(by.get("T1")).toMatchObject({ flags: ["labelled-invalid"], invalidLabels: 1 });
    expect(by.get("T2")).toMatchObject({ flags: ["persistent-failure"], persistentIn: ["m1 · base"] });
    expect(by.get("T3")).toMatchObject({ flags: ["always-passed", "reward-anomaly"], rewardAnomalies: 1 });
    expect(by.get("T4")).toMatchObject({ flags: ["never-passed"], rollouts: 2, passed: 0 });
    expect(h.counts).toEqual({
      "never-passed": 1,
      "always-passed": 1,
      "persistent-failure": 1,
      "labelled-invalid": 1,
      "reward-anomaly": 1,
    });
  });

  it.skipIf(skip)("lets every role with trajectory:read see analytics (viewer included)", async () => {
    const viewer = await t.as("viewer-analytics", "viewer");
    await expect(getRecoveryAnalytics(viewer, f())).resolves.toBeDefined();
  });
});
