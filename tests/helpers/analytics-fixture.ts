// A small recovery-training data set with hand-computed analytics (tests/integration/analytics/*.test.ts state the
// expected figures). Rows are written directly, so the figures do not depend on the importer or the detector.
import type { Db } from "../../lib/db/client.ts";

type Outcome = "passed" | "failed" | "unknown";

export interface AnalyticsFixture {
  runs: Record<"A" | "B" | "C" | "D", string>;
  tasks: Record<"T1" | "T2" | "T3" | "T4", string>;
  forkPoints: Record<"FP1" | "FP2" | "FP3" | "FP4" | "FP5", string>;
}

export async function seedAnalyticsFixture(db: Db, annotatorId: string): Promise<AnalyticsFixture> {
  const run = (name: string, model: string, checkpoint: string, trainingMethod: string) =>
    db.run.create({ data: { name, model, checkpoint, trainingMethod } }).then((r) => r.id);
  const runs = {
    A: await run("m1-base-100", "m1", "step-100", "base"),
    B: await run("m1-grpo-200", "m1", "step-200", "grpo"),
    C: await run("m2-base-0", "m2", "step-0", "base"),
    D: await run("m1-base-200", "m1", "step-200", "base"),
  };
  const task = (externalId: string, category: string) =>
    db.task.create({ data: { benchmark: "fixture", externalId, name: externalId, category } }).then((t) => t.id);
  const tasks = {
    T1: await task("T1", "build"),
    T2: await task("T2", "build"),
    T3: await task("T3", "data"),
    T4: await task("T4", "data"),
  };
  let serial = 0;
  const traj = async (
    r: keyof typeof runs,
    t: keyof typeof tasks,
    outcome: Outcome,
    extra: { reward?: number | null; parentId?: string; forkPointId?: string; attemptIndex?: number } = {},
  ) => {
    const reward = extra.reward !== undefined ? extra.reward : outcome === "passed" ? 1 : outcome === "failed" ? 0 : null;
    const row = await db.trajectory.create({
      data: {
        contentHash: `fixture-${serial++}`,
        taskId: tasks[t],
        runId: runs[r],
        outcome,
        reward,
        sourceFormat: "native",
        parentId: extra.parentId,
        forkPointId: extra.forkPointId,
        attemptIndex: extra.attemptIndex,
        forkStepIndex: extra.parentId ? 1 : null,
      },
    });
    return row.id;
  };
  // Original rollouts.
  await traj("A", "T1", "passed");
  const a1Failed = await traj("A", "T1", "failed");
  const a2First = await traj("A", "T2", "failed");
  const a2Second = await traj("A", "T2", "failed");
  await traj("A", "T3", "passed", { reward: 0 }); // reward contradicts the verifier
  await traj("A", "T3", "unknown");
  await traj("B", "T1", "passed");
  await traj("B", "T1", "passed");
  const b2Failed = await traj("B", "T2", "failed");
  await traj("B", "T2", "passed");
  await traj("B", "T3", "passed");
  const c4First = await traj("C", "T4", "failed");
  await traj("C", "T4", "failed");
  await traj("D", "T2", "failed");

  const fork = (parentId: string, errorCategory: string | null) =>
    db.forkPoint.create({ data: { trajectoryId: parentId, stepIndex: 1, errorCategory } }).then((f) => f.id);
  const forkPoints = {
    FP1: await fork(a2First, "command-error"),
    FP2: await fork(a2Second, "command-error"), // relabelled missing-dependency below
    FP3: await fork(a1Failed, "timeout"), // every attempt has an unknown outcome
    FP4: await fork(b2Failed, "timeout"), // no attempts at all
    FP5: await fork(c4First, null), // no category
  };
  const attempts = async (r: keyof typeof runs, t: keyof typeof tasks, parentId: string, fp: string, outcomes: Outcome[]) => {
    for (const [i, o] of outcomes.entries()) await traj(r, t, o, { parentId, forkPointId: fp, attemptIndex: i });
  };
  await attempts("A", "T2", a2First, forkPoints.FP1, ["passed", "failed", "passed", "failed"]);
  await attempts("A", "T2", a2Second, forkPoints.FP2, ["failed", "failed", "passed"]);
  await attempts("A", "T1", a1Failed, forkPoints.FP3, ["unknown", "unknown"]);
  await attempts("C", "T4", c4First, forkPoints.FP5, ["failed"]);

  const schema = await db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
  await db.annotation.create({
    data: {
      schemaId: schema.id,
      annotatorId,
      targetType: "fork_point",
      targetKey: `fork:${forkPoints.FP2}`,
      trajectoryId: a2Second,
      forkPointId: forkPoints.FP2,
      value: "missing-dependency",
    },
  });
  await db.annotation.create({
    data: {
      schemaId: schema.id,
      annotatorId,
      targetType: "trajectory",
      targetKey: `traj:${a1Failed}`,
      trajectoryId: a1Failed,
      value: "task-invalid",
    },
  });
  return { runs, tasks, forkPoints };
}
