import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../../tests/helpers/test-db.ts";
import { seedDemo } from "../system/seed-demo.ts";
import { compareAttempts, compareLinkSchema } from "./compare.ts";
import { getTestReport } from "./test-report.ts";
import { getForkTree, getSteps, getTrajectory } from "../browse/view-trajectory.ts";
import { generateTrajectories } from "../../generator/generate.ts";
import { importTrajectories } from "../import/import-trajectories.ts";

const SEED = { count: 40, seed: 5 };
const generated = [...generateTrajectories(SEED)];
const parent = generated.find((p) => generated.filter((a) => a.fork?.parentId === p.id).length >= 3)!;
const attempts = generated.filter((a) => a.fork?.parentId === parent.id);
const fork = attempts[0]!.fork!.stepIndex;

describe.each(PROVIDERS)("fork tree, comparison and test report on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, SEED);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("opens trajectories by their client id as well as their id", async () => {
    const byClientId = await getTrajectory(t.ctx, parent.id!);
    const byId = await getTrajectory(t.ctx, byClientId.id);
    expect(byId.externalId).toBe(parent.id);
    expect((await getSteps(t.ctx, parent.id!, 0, 3)).map((s) => s.index)).toEqual([0, 1, 2]);
  });

  it.skipIf(skip)("builds the family tree from any member: root → fork → attempts with outcome and length", async () => {
    const fromAttempt = await getForkTree(t.ctx, attempts[1]!.id!);
    const fromRoot = await getForkTree(t.ctx, parent.id!);
    expect(fromAttempt).toEqual(fromRoot);
    const root = fromRoot.root;
    expect(root.forks).toHaveLength(1);
    expect(root.forks[0]!.stepIndex).toBe(fork);
    expect(root.forks[0]!.attempts.map((a) => [a.attemptIndex, a.outcome, a.stepCount])).toEqual(
      attempts.map((a) => [a.fork!.attemptIndex, a.outcome, a.steps.length]),
    );
    await expect(getForkTree(t.ctx, "missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it.skipIf(skip)("compares picked attempts: shared prefix once, commands after the fork, diffs against the first", async () => {
    const tree = await getForkTree(t.ctx, parent.id!);
    const [a, , c] = tree.root.forks[0]!.attempts;
    const cmp = await compareAttempts(t.ctx, parent.id!, compareLinkSchema.parse({ fork: String(fork), attempts: [a!.id, c!.id] }));
    expect(cmp.forkStepIndex).toBe(fork);
    expect(cmp.sharedPrefix.map((s) => s.index)).toEqual(Array.from({ length: fork + 1 }, (_, i) => i));
    expect(cmp.attempts.map((x) => x.id)).toEqual([a!.id, c!.id]);
    const third = attempts[2]!;
    expect(cmp.attempts[1]!.steps.map((s) => s.index)).toEqual(third.steps.slice(fork + 1).map((_, i) => fork + 1 + i));
    const diff = cmp.diffs[0]!;
    expect(diff.filter((o) => o.kind !== "added").length).toBe(attempts[0]!.steps.slice(fork + 1).filter((s) => s.action).length);
    expect(diff.filter((o) => o.kind !== "removed").length).toBe(third.steps.slice(fork + 1).filter((s) => s.action).length);
    // One pick is topped up to two; unknown attempts and forks are refused.
    expect((await compareAttempts(t.ctx, parent.id!, compareLinkSchema.parse({ attempts: c!.id }))).attempts).toHaveLength(2);
    await expect(compareAttempts(t.ctx, parent.id!, compareLinkSchema.parse({ attempts: "nope,other" }))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(compareAttempts(t.ctx, parent.id!, compareLinkSchema.parse({ fork: "999" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it.skipIf(skip)("reports tests that changed state after an attempt's fork point, and caps long histories", async () => {
    const steps = [
      { source: "agent" as const, action: "pytest", observation: "tests/t.py::a FAILED\ntests/t.py::flaky PASSED" },
      ...Array.from({ length: 12 }, (_, i) => ({
        source: "agent" as const,
        action: "pytest",
        observation: `tests/t.py::flaky ${i % 2 ? "PASSED" : "FAILED"}`,
      })),
      { source: "agent" as const, action: "pytest", observation: "tests/t.py::a PASSED" },
    ];
    const report = await importTrajectories(
      t.ctx,
      [
        {
          ok: true,
          value: {
            trajectory: {
              format: "reterm.trajectory.v1",
              id: "tests-1",
              task: { benchmark: "b", id: "t" },
              run: { name: "r" },
              outcome: "passed",
              verifierOutput: "FAILED tests/t.py::b - x\nPASSED tests/t.py::a",
              steps,
            },
            sourceFormat: "native",
          },
          file: "t",
        },
      ],
      { origin: "seed" },
    );
    const r = await getTestReport(t.ctx, report.trajectoryIds[0]!);
    expect(r.testsSeen).toBe(2);
    expect(r.verifierTests).toEqual([
      { name: "tests/t.py::b", status: "failed" },
      { name: "tests/t.py::a", status: "passed" },
    ]);
    const flaky = r.changed.find((h) => h.name === "tests/t.py::flaky")!;
    expect(flaky.changes).toHaveLength(6);
    expect(flaky.hiddenChanges).toBe(13 - 6);
    expect(r.changed.find((h) => h.name === "tests/t.py::a")!.changes).toEqual([
      { stepIndex: 0, status: "failed" },
      { stepIndex: 13, status: "passed" },
    ]);
  });
});
