// Failure modes on SQLite and PostgreSQL: signatures are written with the trajectory at import, recomputed by the
// reindex for databases from before them, ranked with shares, values, runs and recovery at the mode's fork points,
// filtered like the analytics, and compared between two runs or checkpoints.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { importTrajectories, type ImportRecord } from "../../lib/services/import/import-trajectories.ts";
import {
  compareFailureModes,
  FAILURE_MODE_SOURCE,
  listFailureModes,
  reindexFailureModes,
  suggestModeCategory,
} from "../../lib/services/failure-modes/index.ts";
import { EMPTY_FAILURE_MODE_FILTER, type FailureModeFilter } from "../../lib/validation/failure-modes-params.ts";
import { isAppError } from "../../lib/errors.ts";
import { listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { createQueue } from "../../lib/services/annotation/manage-queues.ts";
import { createLabel, deleteLabel } from "../../lib/services/annotation/save-label.ts";
import { trajectoryListQuerySchema, trajectoryQueryToParams } from "../../lib/validation/search-params/index.ts";
import type { TrajectoryInput } from "../../lib/domain/trajectory.ts";

const F = (over: Partial<FailureModeFilter> = {}): FailureModeFilter => ({ ...EMPTY_FAILURE_MODE_FILTER, ...over });
const records = (ts: TrajectoryInput[]): ImportRecord[] =>
  ts.map((tr, i) => ({ ok: true, value: { trajectory: tr, sourceFormat: "native" }, file: "modes.jsonl", line: i + 1 }));

const MODULES = ["numpy", "pandas", "scipy", "numpy", "numpy", "torch"];
const missingModule = (i: number) =>
  `Traceback (most recent call last):\n  File "/tmp/tmp${i}x/run_${i}.py", line ${i + 3}, in <module>\nModuleNotFoundError: No module named '${MODULES[i % MODULES.length]}'`;
const missingFile = (i: number) => `cat: /work/out/${i}/result_${i * 7}.json: No such file or directory`;
const segfault = (i: number) => `bash: line 1: ${4000 + i} Segmentation fault (core dumped) ./solver --n ${i}`;

function trajectory(
  id: string,
  run: { name: string; checkpoint: string },
  outcome: "passed" | "failed",
  failures: string[],
  extra: Partial<TrajectoryInput> = {},
): TrajectoryInput {
  return {
    format: "reterm.trajectory.v1",
    id,
    task: { benchmark: "tb", id: `task-${id.length % 3}` },
    run: { name: run.name, model: "m1", checkpoint: run.checkpoint },
    outcome,
    steps: [
      { source: "agent", action: "ls", observation: "a b c", exitCode: 0 },
      ...failures.map((o, i) => ({ source: "agent" as const, action: `step ${i}`, observation: o, exitCode: 1 })),
    ],
    ...extra,
  } as TrajectoryInput;
}

const A = { name: "run-a", checkpoint: "200" };
const B = { name: "run-b", checkpoint: "400" };

/** Run A: missing modules in 6 of 8 failures, a missing file in 2. Run B: missing modules gone, segfaults in 5. */
function corpus(): TrajectoryInput[] {
  const out: TrajectoryInput[] = [];
  for (let i = 0; i < 6; i++) out.push(trajectory(`a-mod-${i}`, A, "failed", [missingModule(i)]));
  for (let i = 0; i < 2; i++) out.push(trajectory(`a-file-${i}`, A, "failed", [missingFile(i)]));
  out.push(trajectory("a-pass", A, "passed", []));
  for (let i = 0; i < 5; i++) out.push(trajectory(`b-seg-${i}`, B, "failed", [segfault(i)]));
  out.push(trajectory("b-file-0", B, "failed", [missingFile(9), missingFile(10)]));
  out.push(trajectory("b-pass", B, "passed", []));
  // Recovery: two attempts fork from a-mod-0's failing step (index 1); one passes. Attempts copy the failing step as
  // context, which is not counted again.
  const copied = { source: "agent" as const, action: "step 0", observation: missingModule(0), exitCode: 1, isCopiedContext: true };
  out.push({
    ...trajectory("a-mod-0-r0", A, "passed", []),
    steps: [
      { source: "agent", action: "ls", observation: "a b c", exitCode: 0, isCopiedContext: true },
      copied,
      { source: "agent", action: "pip install numpy", observation: "ok", exitCode: 0 },
    ],
    fork: { parentId: "a-mod-0", stepIndex: 1, attemptIndex: 0 },
  } as TrajectoryInput);
  out.push({
    ...trajectory("a-mod-0-r1", A, "failed", []),
    steps: [
      { source: "agent", action: "ls", observation: "a b c", exitCode: 0, isCopiedContext: true },
      copied,
      { source: "agent", action: "python run.py", observation: "still broken", exitCode: 0 },
    ],
    fork: { parentId: "a-mod-0", stepIndex: 1, attemptIndex: 1 },
  } as TrajectoryInput);
  return out;
}

describe.each(PROVIDERS)("failure modes on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let runA: string;
  let runB: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    const r = await importTrajectories(t.ctx, records(corpus()), { origin: "cli" });
    expect(r).toMatchObject({ imported: 18, failed: 0 });
    runA = (await t.db.run.findUniqueOrThrow({ where: { name: "run-a" } })).id;
    runB = (await t.db.run.findUniqueOrThrow({ where: { name: "run-b" } })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The stored rollup, as comparable rows. */
  const rollup = async () =>
    (
      await t.db.failureModeRollup.findMany({ orderBy: [{ templateHash: "asc" }, { runId: "asc" }, { taskId: "asc" }, { day: "asc" }] })
    ).map((r) => ({
      key: [r.templateHash, r.runId, r.taskId, r.day.toISOString()].join(" "),
      counts: [r.trajectories, r.failedTrajectories, r.steps],
      seen: [r.firstSeen.toISOString(), r.lastSeen.toISOString()],
    }));
  /** The same, counted here from the signatures themselves. */
  const recount = async () => {
    const groups = new Map<string, { ts: Set<string>; failed: Set<string>; steps: number; seen: string[] }>();
    for (const s of await t.db.failureSignature.findMany()) {
      const at = s.importedAt.toISOString();
      const key = [s.templateHash, s.runId, s.taskId, `${at.slice(0, 10)}T00:00:00.000Z`].join(" ");
      const g = groups.get(key) ?? { ts: new Set(), failed: new Set(), steps: 0, seen: [] };
      g.ts.add(s.trajectoryId);
      if (s.outcome === "failed") g.failed.add(s.trajectoryId);
      g.steps += 1;
      g.seen.push(at);
      groups.set(key, g);
    }
    return [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, g]) => ({ key, counts: [g.ts.size, g.failed.size, g.steps], seen: [g.seen.sort()[0], g.seen.sort().at(-1)] }));
  };
  /** The value rollup as "mode value run task day → steps", stored and recounted. */
  const valueRollup = async () =>
    Object.fromEntries(
      (await t.db.failureValueRollup.findMany()).map((r) => [
        [r.templateHash, r.value, r.runId, r.taskId, r.day.toISOString()].join(" "),
        r.steps,
      ]),
    );
  const valueRecount = async () => {
    const out: Record<string, number> = {};
    for (const s of await t.db.failureSignature.findMany({ where: { value: { not: null } } })) {
      const key = [s.templateHash, s.value, s.runId, s.taskId, `${s.importedAt.toISOString().slice(0, 10)}T00:00:00.000Z`].join(" ");
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  };

  it.skipIf(skip)("groups the planted failures into one mode each, ranked by trajectories, with values, runs and shares", async () => {
    const list = await listFailureModes(t.ctx, F());
    expect(list.failedTrajectories).toBe(15);
    expect(list.needsReindex).toBe(false);
    expect(list.modes.map((m) => [m.signature, m.trajectories, m.steps, m.category])).toEqual([
      ["ModuleNotFoundError: No module named '<name>'", 6, 6, "missing-dependency"],
      ["Segmentation fault", 5, 5, "runtime-exception"],
      ["cat: '<path>': No such file or directory", 3, 4, "file-permission"],
    ]);
    const mod = list.modes[0]!;
    expect(mod.values).toEqual([
      { value: "numpy", count: 3 },
      { value: "pandas", count: 1 },
      { value: "scipy", count: 1 },
      { value: "torch", count: 1 },
    ]);
    expect(mod.shareOfFailures).toBeCloseTo(6 / 15);
    expect(mod.runs).toEqual([{ id: runA, name: "run-a", trajectories: 6 }]);
    expect(mod.checkpoints).toEqual(["200"]);
    expect(mod.models).toEqual(["m1"]);
    expect(mod.examples).toHaveLength(3);
    for (const e of mod.examples) expect(e.stepIndex).toBe(1);
    // The fork point at a-mod-0's failing step: two attempts, one passed.
    expect(mod.recovery).toMatchObject({ forkPoints: 1, attempts: 2, successfulAttempts: 1, recoveryRate: 1 });
    expect(list.modes[1]!.recovery.forkPoints).toBe(0);
    // The filter applies to the fork point's parent: run B has none of run A's fork points.
    expect((await listFailureModes(t.ctx, F({ runId: [runA] }))).modes[0]!.recovery).toMatchObject({ forkPoints: 1, attempts: 2 });
    expect((await listFailureModes(t.ctx, F({ runId: [runB] }))).modes.every((m) => m.recovery.forkPoints === 0)).toBe(true);
    expect(list.modes[2]!.runs.map((r) => [r.name, r.trajectories])).toEqual([
      ["run-a", 2],
      ["run-b", 1],
    ]);
  });

  it.skipIf(skip)("drills down into the trajectory table filtered to a mode (a URL round trip)", async () => {
    const [mod, seg] = (await listFailureModes(t.ctx, F())).modes;
    const q = trajectoryListQuerySchema.parse({ mode: [mod!.id] });
    expect(trajectoryQueryToParams(q).getAll("mode")).toEqual([mod!.id]);
    const rows = (await listTrajectories(t.ctx, q)).rows;
    const expected = await t.db.trajectory.findMany({
      where: { externalId: { startsWith: "a-mod-" }, parentId: null },
      select: { id: true },
    });
    expect(expected).toHaveLength(6);
    expect(rows.map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort());
    const both = (await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ mode: [mod!.id, seg!.id] }))).rows;
    expect(both).toHaveLength(11);
    // "Label from here": a queue made from the mode's table filter holds exactly its trajectories.
    const queue = await createQueue(t.ctx, { name: `mode ${provider}`, filter: `mode=${mod!.id}`, schemas: ["error-category"] });
    expect(await t.db.queueItem.count({ where: { queueId: queue.id } })).toBe(6);
  });

  it.skipIf(skip)("offers a mode's suggested category on each of its steps as suggestions, never labels, once", async () => {
    const [mod] = (await listFailureModes(t.ctx, F())).modes;
    const labelsBefore = await t.db.annotation.count();
    const first = await suggestModeCategory(t.ctx, F({ runId: [runA] }), mod!.id);
    expect(first).toEqual({ steps: 6, created: 6, updated: 0, unchanged: 0, capped: false });
    const rows = await t.db.suggestion.findMany({ where: { source: FAILURE_MODE_SOURCE }, orderBy: { targetKey: "asc" } });
    expect(rows.map((r) => [r.targetType, r.stepStart, r.stepEnd, r.value])).toEqual(
      Array(6).fill(["step_range", 1, 1, "missing-dependency"]),
    );
    const modTrajectories = await t.db.trajectory.findMany({
      where: { externalId: { startsWith: "a-mod-" }, parentId: null },
      select: { id: true },
    });
    expect(rows.map((r) => r.trajectoryId).sort()).toEqual(modTrajectories.map((x) => x.id).sort());
    expect(await t.db.annotation.count()).toBe(labelsBefore);
    expect(await suggestModeCategory(t.ctx, F(), mod!.id)).toMatchObject({ created: 0, updated: 0, unchanged: 6 });
    // Out of scope (run B has none of this mode) and a viewer are refused.
    expect(await suggestModeCategory(t.ctx, F({ runId: [runB] }), mod!.id).catch((e: unknown) => isAppError(e) && e.code)).toBe(
      "NOT_FOUND",
    );
    const viewer = await t.as("sugg-viewer", "viewer");
    expect(await suggestModeCategory(viewer, F(), mod!.id).catch((e: unknown) => isAppError(e) && e.code)).toBe("FORBIDDEN");
    await t.db.suggestion.deleteMany({ where: { source: FAILURE_MODE_SOURCE } });
  });

  it.skipIf(skip)("a label's error category overrides the mode's suggested one (most labelled steps win)", async () => {
    const seg = (await listFailureModes(t.ctx, F())).modes.find((m) => m.signature === "Segmentation fault")!;
    expect([seg.category, seg.suggestedCategory, seg.labelledSteps]).toEqual(["runtime-exception", "runtime-exception", 0]);
    const ids = (
      await t.db.trajectory.findMany({
        where: { externalId: { startsWith: "b-seg-" } },
        orderBy: { externalId: "asc" },
        select: { id: true },
      })
    ).map((x) => x.id);
    // Two steps labelled "timeout" (one through a range wider than the step), one "command-error", one label off the failing step.
    const made = [
      await createLabel(t.ctx, { trajectory: ids[0], schema: "error-category", value: "timeout", target: { steps: [0, 1] } }),
      await createLabel(t.ctx, { trajectory: ids[1], schema: "error-category", value: "timeout", target: { steps: [1, 1] } }),
      await createLabel(t.ctx, { trajectory: ids[2], schema: "error-category", value: "command-error", target: { steps: [1, 1] } }),
      await createLabel(t.ctx, { trajectory: ids[3], schema: "error-category", value: "command-error", target: { steps: [0, 0] } }),
    ];
    const after = (await listFailureModes(t.ctx, F())).modes.find((m) => m.id === seg.id)!;
    expect([after.category, after.suggestedCategory, after.labelledSteps]).toEqual(["timeout", "runtime-exception", 3]);
    // Other modes keep their suggestion; out of the filter the labels do not count.
    expect((await listFailureModes(t.ctx, F())).modes.filter((m) => m.id !== seg.id).every((m) => m.category === m.suggestedCategory)).toBe(
      true,
    );
    expect((await listFailureModes(t.ctx, F({ runId: [runA] }))).modes.find((m) => m.id === seg.id)).toBeUndefined();
    for (const l of made) await deleteLabel(t.ctx, l.id, l.version);
    expect((await listFailureModes(t.ctx, F())).modes.find((m) => m.id === seg.id)!.category).toBe("runtime-exception");
  });

  it.skipIf(skip)("filters by run, checkpoint, task and import date", async () => {
    expect((await listFailureModes(t.ctx, F({ runId: [runB] }))).modes.map((m) => m.trajectories)).toEqual([5, 1]);
    expect((await listFailureModes(t.ctx, F({ checkpoint: ["200"] }))).modes.map((m) => m.kind)).toEqual(["exception", "file"]);
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect((await listFailureModes(t.ctx, F({ from: tomorrow }))).modes).toEqual([]);
    expect((await listFailureModes(t.ctx, F({ to: tomorrow }))).modes).toHaveLength(3);
    const task = (await t.db.task.findFirstOrThrow({ where: { externalId: "task-0" } })).id;
    const byTask = await listFailureModes(t.ctx, F({ taskId: [task] }));
    expect(byTask.modes.reduce((s, m) => s + m.trajectories, 0)).toBeLessThan(14);
  });

  it.skipIf(skip)("compares two runs: modes only in one, and the change of those in both with an interval", async () => {
    const c = await compareFailureModes(t.ctx, F(), { by: "run", baseline: runA, compared: runB });
    expect(c.baseline.failedTrajectories).toBe(9);
    expect(c.compared.failedTrajectories).toBe(6);
    expect(c.onlyInCompared.map((m) => m.signature)).toEqual(["Segmentation fault"]);
    expect(c.onlyInBaseline.map((m) => m.signature)).toEqual(["ModuleNotFoundError: No module named '<name>'"]);
    expect(c.onlyInBaseline[0]!.significant).toBe(true);
    expect(c.changed).toHaveLength(1);
    const file = c.changed[0]!;
    expect(file.baseline.share).toBeCloseTo(2 / 9);
    expect(file.compared.share).toBeCloseTo(1 / 6);
    expect(file.difference!.ci.lo).toBeLessThan(0);
    expect(file.difference!.ci.hi).toBeGreaterThan(0);
    expect(file.significant).toBe(false);
    const byCheckpoint = await compareFailureModes(t.ctx, F(), { by: "checkpoint", baseline: "200", compared: "400" });
    expect(byCheckpoint.onlyInCompared.map((m) => m.id)).toEqual(c.onlyInCompared.map((m) => m.id));
  });

  it.skipIf(skip)("keeps the rollup equal to a recount of the signatures, through imports and a strict import's rollback", async () => {
    expect(await rollup()).toEqual(await recount());
    expect((await rollup()).length).toBeGreaterThan(0);
    expect(await valueRollup()).toEqual(await valueRecount());
    expect(Object.keys(await valueRollup()).length).toBeGreaterThan(0);
    // A second import the same day adds to the same rollup rows.
    const more = [
      trajectory("a-mod-late", A, "failed", [missingModule(3)]),
      trajectory("b-seg-late", B, "failed", [segfault(7), segfault(8)]),
    ];
    expect(await importTrajectories(t.ctx, records(more), { origin: "cli" })).toMatchObject({ imported: 2 });
    expect(await rollup()).toEqual(await recount());
    expect(await valueRollup()).toEqual(await valueRecount());
    const list = await listFailureModes(t.ctx, F());
    expect(list.modes.map((m) => [m.trajectories, m.steps])).toEqual([
      [7, 7],
      [6, 7],
      [3, 4],
    ]);
    // Strict: one record conflicts with a stored one (same id, other content), so everything it wrote is removed again.
    const bad = [
      trajectory("a-file-strict", A, "failed", [missingFile(5)]),
      trajectory("a-mod-late", A, "failed", [missingModule(4), missingModule(5)]),
    ];
    const r = await importTrajectories(t.ctx, records(bad), { origin: "cli", strict: true });
    expect(r.rolledBack).toBe(true);
    expect(await rollup()).toEqual(await recount());
    expect(await valueRollup()).toEqual(await valueRecount());
    expect((await listFailureModes(t.ctx, F())).modes.map((m) => [m.trajectories, m.steps])).toEqual([
      [7, 7],
      [6, 7],
      [3, 4],
    ]);
  });

  it.skipIf(skip)("reindex recomputes the same signatures and rollup for a database from before them", async () => {
    const before = await t.db.failureSignature.findMany({ orderBy: [{ trajectoryId: "asc" }, { stepIndex: "asc" }] });
    const rolledUp = await rollup();
    await t.db.failureSignature.deleteMany({});
    await t.db.failureModeRollup.deleteMany({});
    await t.db.failureValueRollup.deleteMany({});
    // As the migration leaves a database from before signatures: no fork point knows its failure mode.
    await t.db.forkPoint.updateMany({ data: { failureMode: null } });
    expect((await listFailureModes(t.ctx, F())).needsReindex).toBe(true);
    const r = await reindexFailureModes(t.ctx);
    expect(r).toEqual({ trajectories: 20, signatures: before.length });
    const after = await t.db.failureSignature.findMany({ orderBy: [{ trajectoryId: "asc" }, { stepIndex: "asc" }] });
    expect(after.map((s) => ({ ...s, importedAt: s.importedAt.toISOString() }))).toEqual(
      before.map((s) => ({ ...s, importedAt: s.importedAt.toISOString() })),
    );
    expect(await rollup()).toEqual(rolledUp);
    expect(await valueRollup()).toEqual(await valueRecount());
    const modes = (await listFailureModes(t.ctx, F())).modes;
    expect(modes[0]!.recovery).toMatchObject({ forkPoints: 1, attempts: 2, successfulAttempts: 1 });
  });

  it.skipIf(skip)("checks the role first", async () => {
    const nobody = await t.as("rando", "viewer");
    expect((await listFailureModes(nobody, F())).modes.length).toBe(3);
    const err = await reindexFailureModes(nobody).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe("FORBIDDEN");
  });
});
