// Task and run pages on SQLite and PostgreSQL: pass rates and pass@k per run from original rollouts only, error mix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { getRunDetail, getTaskDetail, listRuns, listTasks } from "../../lib/services/browse/browse-catalog.ts";
import { passAtK } from "../../lib/domain/analytics/pass-at-k.ts";
import { AppError } from "../../lib/errors.ts";

const SEED = { count: 120, seed: 3 };
const generated = [...generateTrajectories(SEED)];
const roots = generated.filter((g) => !g.fork);

describe.each(PROVIDERS)("task and run pages on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, SEED);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("lists tasks and runs with root-only pass counts and attempts apart", async () => {
    const tasks = await listTasks(t.ctx);
    for (const task of tasks) {
      const mine = generated.filter((g) => g.task.name === task.name);
      const myRoots = mine.filter((g) => !g.fork);
      expect(task.figures).toMatchObject({
        rollouts: myRoots.length,
        passed: myRoots.filter((g) => g.outcome === "passed").length,
        unknown: 0,
      });
      expect(task.recovery.attempts).toBe(mine.length - myRoots.length);
    }
    const runs = await listRuns(t.ctx);
    expect(runs.reduce((n, r) => n + r.figures.rollouts + r.recovery.attempts, 0)).toBe(generated.length);
  });

  it.skipIf(skip)("gives every run's pass@k on one task", async () => {
    const taskName = roots[0]!.task.name!;
    const task = await t.db.task.findFirstOrThrow({ where: { name: taskName } });
    const detail = await getTaskDetail(t.ctx, task.id);
    expect(detail.task.name).toBe(taskName);
    for (const r of detail.runs) {
      const samples = roots.filter((g) => g.task.name === taskName && g.run.name === r.name);
      const c = samples.filter((g) => g.outcome === "passed").length;
      expect(r.figures.rollouts).toBe(samples.length);
      expect(r.figures.passAtK["1"]).toBe(passAtK(samples.length, c, 1));
      expect(r.figures.passAtK["4"]).toBe(passAtK(samples.length, c, 4));
    }
    expect(detail.runs.reduce((n, r) => n + r.figures.rollouts, 0)).toBe(roots.filter((g) => g.task.name === taskName).length);
  });

  it.skipIf(skip)("gives a run's pass rate and the error mix of its failed rollouts", async () => {
    const runName = roots[0]!.run.name;
    const run = await t.db.run.findFirstOrThrow({ where: { name: runName } });
    const d = await getRunDetail(t.ctx, run.id);
    const mine = roots.filter((g) => g.run.name === runName);
    expect(d.figures.rollouts).toBe(mine.length);
    expect(d.figures.passed).toBe(mine.filter((g) => g.outcome === "passed").length);
    expect(d.recovery.attempts).toBe(generated.filter((g) => g.fork && g.run.name === runName).length);
    expect(d.errorMix.reduce((n, m) => n + m.count, 0)).toBe(mine.filter((g) => g.outcome === "failed").length);
    expect(d.errorMix.reduce((n, m) => n + m.share, 0)).toBeCloseTo(1, 10);
    const stored = await t.db.trajectory.count({
      where: { runId: run.id, parentId: null, outcome: "failed", firstErrorCategory: d.errorMix[0]!.category },
    });
    expect(d.errorMix[0]!.count).toBe(stored);
  });

  it.skipIf(skip)("answers NOT_FOUND for unknown ids", async () => {
    await expect(getTaskDetail(t.ctx, "nope")).rejects.toBeInstanceOf(AppError);
    await expect(getRunDetail(t.ctx, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
