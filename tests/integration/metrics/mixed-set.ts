// The mixed set behind the metrics consistency tests: generated runs with known outcomes (three checkpoints), a
// hand-built fork tree whose attempts pass, fail and are unknown, and — when ../shared is present — SFT files that
// carry no outcome at all. Plus the plain-SQL counts every surface is checked against, and the arithmetic on them
// (pass@k, Wilson) written out here again rather than imported, so a wrong shared definition cannot pass itself.
import type { Db } from "../../../lib/db/client.ts";
import type { ServiceContext } from "../../../lib/services/context.ts";
import { seedDemo } from "../../../lib/services/system/seed-demo.ts";
import { importTrajectories } from "../../../lib/services/import/import-trajectories.ts";
import { importFiles } from "../../../lib/services/import/import-files.ts";
import type { TrajectoryDraft } from "../../../lib/domain/trajectory.ts";
import { trajectorySchema } from "../../../lib/domain/trajectory.ts";
import { fixture, hasSharedFixtures, sharedFixturesSkipReason } from "../../helpers/shared-fixtures.ts";

export const KS = [1, 2, 4, 8] as const;
export const TREE_RUN = "mixed-fork-tree";
export const TREE_TASK = "mixed-tree-task";

function tree(): TrajectoryDraft[] {
  const task = { benchmark: "mixed", id: TREE_TASK, name: TREE_TASK, category: "data" };
  const run = { name: TREE_RUN, model: "tree-model", checkpoint: "step-50", trainingMethod: "grpo" as const };
  const steps = (tag: string) => [
    { source: "user" as const, message: `do ${tag}` },
    { source: "agent" as const, action: "make", observation: "make: *** No rule to make target 'all'.  Stop.", exitCode: 2 },
    { source: "agent" as const, action: `echo ${tag}`, observation: tag, exitCode: 0 },
  ];
  const root = (id: string, outcome: "passed" | "failed" | "unknown"): TrajectoryDraft => ({ id, task, run, outcome, steps: steps(id) });
  const attempt = (parentId: string, i: number, outcome: "passed" | "failed" | "unknown"): TrajectoryDraft => ({
    id: `${parentId}-a${i}`,
    task,
    run,
    outcome,
    steps: steps(`${parentId}-a${i}`),
    fork: { parentId, stepIndex: 1, attemptIndex: i, errorCategory: "command-error" },
  });
  return [
    root("mx-r1", "failed"),
    attempt("mx-r1", 0, "failed"),
    attempt("mx-r1", 1, "passed"),
    attempt("mx-r1", 2, "unknown"),
    attempt("mx-r1", 3, "passed"),
    root("mx-r2", "failed"),
    attempt("mx-r2", 0, "unknown"),
    attempt("mx-r2", 1, "unknown"),
    root("mx-r3", "passed"),
    root("mx-r4", "unknown"),
    root("mx-r5", "failed"),
  ];
}

/** Loads the mixed set; returns whether the shared SFT fixtures were part of it. */
export async function loadMixedSet(ctx: ServiceContext): Promise<boolean> {
  await seedDemo(ctx, { count: 160, seed: 17, checkpoints: [100, 200, 400] });
  const records = tree().map((draft) => ({
    ok: true as const,
    value: { trajectory: trajectorySchema.parse(draft), sourceFormat: "native" },
    file: "mixed-tree",
  }));
  const r = await importTrajectories(ctx, records, { origin: "cli" });
  if (r.imported !== records.length) throw new Error(`fork tree: ${r.imported} of ${records.length} imported`);
  if (!hasSharedFixtures) {
    console.warn(`[metrics] SFT part of the mixed set ${sharedFixturesSkipReason}`);
    return false;
  }
  await importFiles(ctx, [fixture("sft-openai-jsonl"), fixture("sft-sharegpt")], { origin: "cli" });
  return true;
}

// ---- plain SQL ----

const n = (v: unknown) => Number(v ?? 0);

export interface SqlRolloutCell {
  runId: string;
  taskId: string;
  passed: number;
  failed: number;
  unknown: number;
}
export async function sqlRolloutCells(db: Db): Promise<SqlRolloutCell[]> {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`
    SELECT "runId", "taskId",
      SUM(CASE WHEN "outcome" = 'passed' THEN 1 ELSE 0 END) AS p,
      SUM(CASE WHEN "outcome" = 'failed' THEN 1 ELSE 0 END) AS f,
      SUM(CASE WHEN "outcome" IN ('passed', 'failed') THEN 0 ELSE 1 END) AS u
    FROM "Trajectory" WHERE "parentId" IS NULL GROUP BY "runId", "taskId"`);
  return rows.map((r) => ({ runId: String(r.runId), taskId: String(r.taskId), passed: n(r.p), failed: n(r.f), unknown: n(r.u) }));
}

/** One fork point as counted for one run: its attempts in that run (none for a parent-run entry without any). */
export interface SqlForkUnit {
  forkPointId: string;
  runId: string;
  taskId: string;
  attempts: number;
  known: number;
  passed: number;
  first: number | null;
}

export async function sqlForkUnits(db: Db, perRun: boolean): Promise<SqlForkUnit[]> {
  const groupRun = perRun ? `, "runId", "taskId"` : "";
  const attempts = await db.$queryRawUnsafe<Record<string, unknown>[]>(`
    SELECT "forkPointId"${groupRun}, COUNT(*) AS a,
      SUM(CASE WHEN "outcome" IN ('passed', 'failed') THEN 1 ELSE 0 END) AS k,
      SUM(CASE WHEN "outcome" = 'passed' THEN 1 ELSE 0 END) AS p,
      MIN(CASE WHEN "outcome" = 'passed' THEN "attemptIndex" END) AS first
    FROM "Trajectory" WHERE "forkPointId" IS NOT NULL GROUP BY "forkPointId"${groupRun}`);
  const parents = await db.$queryRawUnsafe<Record<string, unknown>[]>(`
    SELECT fp."id", p."runId", p."taskId" FROM "ForkPoint" fp JOIN "Trajectory" p ON p."id" = fp."trajectoryId"`);
  const units: SqlForkUnit[] = attempts.map((r) => ({
    forkPointId: String(r.forkPointId),
    runId: String(r.runId ?? ""),
    taskId: String(r.taskId ?? ""),
    attempts: n(r.a),
    known: n(r.k),
    passed: n(r.p),
    first: r.first === null ? null : n(r.first) + 1,
  }));
  for (const p of parents) {
    const has = units.some((u) => u.forkPointId === p.id && (!perRun || u.runId === p.runId));
    if (!has)
      units.push({
        forkPointId: String(p.id),
        runId: String(p.runId),
        taskId: String(p.taskId),
        attempts: 0,
        known: 0,
        passed: 0,
        first: null,
      });
  }
  return units;
}

// ---- arithmetic, written independently of lib/domain ----

function choose(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  let r = 1;
  for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i;
  return r;
}
const passAt = (total: number, ok: number, k: number) => 1 - choose(total - ok, k) / choose(total, k);

export function expectedPassAtK(cells: { n: number; c: number }[]): {
  value: Record<string, number | null>;
  problems: Record<string, number>;
} {
  const value: Record<string, number | null> = {};
  const problems: Record<string, number> = {};
  for (const k of KS) {
    const usable = cells.filter((x) => x.n >= k);
    problems[k] = usable.length;
    value[k] = usable.length ? usable.reduce((s, x) => s + passAt(x.n, x.c, k), 0) / usable.length : null;
  }
  return { value, problems };
}

export function wilson(x: number, total: number): { lo: number; hi: number } | null {
  if (!total) return null;
  const z = 1.959963984540054;
  const p = x / total;
  const d = 1 + (z * z) / total;
  const centre = (p + (z * z) / (2 * total)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total))) / d;
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

export interface ExpectedRollouts {
  rollouts: number;
  passed: number;
  failed: number;
  unknown: number;
  rate: number | null;
  ci: { lo: number; hi: number } | null;
  passAtK: Record<string, number | null>;
  passAtKProblems: Record<string, number>;
}
export function expectedRollouts(cells: SqlRolloutCell[]): ExpectedRollouts {
  const passed = cells.reduce((s, x) => s + x.passed, 0);
  const failed = cells.reduce((s, x) => s + x.failed, 0);
  const unknown = cells.reduce((s, x) => s + x.unknown, 0);
  const at = expectedPassAtK(cells.map((x) => ({ n: x.passed + x.failed, c: x.passed })));
  return {
    rollouts: passed + failed + unknown,
    passed,
    failed,
    unknown,
    rate: passed + failed ? passed / (passed + failed) : null,
    ci: wilson(passed, passed + failed),
    passAtK: at.value,
    passAtKProblems: at.problems,
  };
}

export interface ExpectedRecovery {
  forkPoints: number;
  evaluatedForkPoints: number;
  unevaluatedForkPoints: number;
  attempts: number;
  unknownAttempts: number;
  successfulAttempts: number;
  recoveredForkPoints: number;
  recoveryRate: number | null;
  recoveryAtK: Record<string, number | null>;
  recoveryAtKForkPoints: Record<string, number>;
  meanAttemptsToFirstSuccess: number | null;
}
export function expectedRecovery(units: SqlForkUnit[]): ExpectedRecovery {
  const evaluated = units.filter((u) => u.known > 0);
  const recovered = units.filter((u) => u.passed > 0);
  const firsts = units.filter((u) => u.first !== null).map((u) => u.first!);
  const at = expectedPassAtK(units.map((u) => ({ n: u.known, c: u.passed })));
  const attempts = units.reduce((s, u) => s + u.attempts, 0);
  return {
    forkPoints: units.length,
    evaluatedForkPoints: evaluated.length,
    unevaluatedForkPoints: units.length - evaluated.length,
    attempts,
    unknownAttempts: attempts - units.reduce((s, u) => s + u.known, 0),
    successfulAttempts: units.reduce((s, u) => s + u.passed, 0),
    recoveredForkPoints: recovered.length,
    recoveryRate: evaluated.length ? recovered.length / evaluated.length : null,
    recoveryAtK: at.value,
    recoveryAtKForkPoints: at.problems,
    meanAttemptsToFirstSuccess: firsts.length ? firsts.reduce((s, x) => s + x, 0) / firsts.length : null,
  };
}
