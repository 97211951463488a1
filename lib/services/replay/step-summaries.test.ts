import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../../../tests/helpers/test-db.ts";
import { importTrajectories } from "../import/import-trajectories.ts";
import type { StepInput, TrajectoryInput } from "../../domain/trajectory.ts";
import { getStepSummaries, MAX_STEP_SUMMARIES, stepSummaryQuerySchema } from "./step-summaries.ts";

const STEPS = 1234;

/** Every 7th step fails, every 10th has a two-line command, every 13th is a user message without one. */
function long(): TrajectoryInput {
  const steps: StepInput[] = Array.from({ length: STEPS }, (_, i) =>
    i % 13 === 0
      ? { source: "user", offsetMs: i * 1000, message: `note ${i}` }
      : {
          source: "agent",
          offsetMs: i * 1000,
          action: i % 10 === 0 ? `echo ${i}\necho more` : `run --step ${i}`,
          observation: `out ${i}`,
          exitCode: i % 7 === 0 ? 3 : 0,
        },
  );
  return {
    format: "reterm.trajectory.v1",
    id: "long-list",
    task: { benchmark: "t", id: "long" },
    run: { name: "r" },
    outcome: "failed",
    steps,
  };
}

describe.each(PROVIDERS)("replay step list in ranges ($title)", ({ provider, skip }) => {
  let t: TestDatabase;
  let id: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    const report = await importTrajectories(t.ctx, [{ ok: true, value: { trajectory: long(), sourceFormat: "native" }, file: "test" }], {
      origin: "seed",
    });
    expect(report.imported).toBe(1);
    id = (await t.db.trajectory.findFirstOrThrow({ where: { externalId: "long-list" }, select: { id: true } })).id;
  }, 120_000);
  afterAll(async () => {
    if (!skip) await t.drop();
  });

  it.skipIf(skip)("returns exactly the asked range with the total, far into the list too", async () => {
    const first = await getStepSummaries(t.ctx, id, { from: 0, to: 100 });
    expect(first.total).toBe(STEPS);
    expect(first.steps.map((s) => s.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const far = await getStepSummaries(t.ctx, id, { from: 1100, to: 1200 });
    expect(far.steps.map((s) => s.index)).toEqual(Array.from({ length: 100 }, (_, i) => 1100 + i));
    const s1180 = far.steps.find((s) => s.index === 1180)!;
    expect(s1180).toMatchObject({ command: "echo 1180", more: true, source: "agent", exitCode: 0, isError: false });
    const s1105 = far.steps.find((s) => s.index === 1105)!;
    expect(s1105).toMatchObject({ command: null, source: "user", exitCode: null });
    const s1099 = (await getStepSummaries(t.ctx, id, { from: 1099, to: 1100 })).steps[0]!;
    expect(s1099).toMatchObject({ index: 1099, command: "run --step 1099", more: false, exitCode: 3 });
  });

  it.skipIf(skip)("a range past the end is cut at the end; the client id works as the id", async () => {
    const tail = await getStepSummaries(t.ctx, "long-list", { from: 1200, to: 1500 });
    expect(tail.steps.map((s) => s.index)).toEqual(Array.from({ length: STEPS - 1200 }, (_, i) => 1200 + i));
    expect((await getStepSummaries(t.ctx, id, { from: 5000, to: 5100 })).steps).toEqual([]);
  });

  it.skipIf(skip)("an unknown trajectory is NOT_FOUND; every role may read", async () => {
    await expect(getStepSummaries(t.ctx, "nope", { from: 0, to: 10 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const viewer = await t.as("vera", "viewer");
    expect((await getStepSummaries(viewer, id, { from: 0, to: 3 })).steps).toHaveLength(3);
  });
});

describe("step list query", () => {
  it("accepts a range and refuses empty, reversed, negative and oversized ones with the field named", () => {
    expect(stepSummaryQuerySchema.parse({ from: "10", to: "20" })).toEqual({ from: 10, to: 20 });
    for (const bad of [
      { from: "5", to: "5" },
      { from: "9", to: "3" },
      { from: "-1", to: "3" },
      { from: "0", to: String(MAX_STEP_SUMMARIES + 1) },
      { from: "x", to: "3" },
    ]) {
      const r = stepSummaryQuerySchema.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error!.issues[0]!.path.length).toBe(1);
    }
  });
});
