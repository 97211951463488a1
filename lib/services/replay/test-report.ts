// Verifier output next to the replay, and which tests changed state during a trajectory (or, for a recovery
// attempt, after its fork point) — read from the per-test result lines the steps' outputs actually contain.
import { authorize, type ServiceContext } from "../context.ts";
import { findStepOutputs, getTrajectoryDetail } from "../../db/repositories/browse/trajectory-detail.ts";
import { parseTestResults, TestTracker, type TestHistory, type TestResult } from "../../domain/replay/test-results.ts";
import { AppError } from "../../errors.ts";

const BATCH = 200;
/** Changes listed per test: the first few and the last few (flaky tests can flip hundreds of times). */
const SHOWN_CHANGES = 6;
const SHOWN_TESTS = 50;
const MAX_CACHED = 64;

declare global {
  var __retermTestReports: Map<string, TestReport> | undefined;
}

// Steps never change after import, so a report is cached per trajectory and step count (this process only).
function cache(): Map<string, TestReport> {
  globalThis.__retermTestReports ??= new Map();
  return globalThis.__retermTestReports;
}

function trim(h: TestHistory): TestHistory & { hiddenChanges: number } {
  if (h.changes.length <= SHOWN_CHANGES) return { ...h, hiddenChanges: 0 };
  const half = SHOWN_CHANGES / 2;
  return {
    name: h.name,
    changes: [...h.changes.slice(0, half), ...h.changes.slice(-half)],
    hiddenChanges: h.changes.length - SHOWN_CHANGES,
  };
}

export interface TestReport {
  verifierOutput: string | null;
  /** Per-test results in the verifier output (empty when it has none). */
  verifierTests: TestResult[];
  /** Distinct tests seen in the steps' outputs. */
  testsSeen: number;
  /** Tests whose state changed at or after `sinceStep` (first SHOWN_TESTS; long histories shortened). */
  changed: (TestHistory & { hiddenChanges: number })[];
  changedTotal: number;
  /** First step that belongs to this attempt (after its fork point); 0 for a root trajectory. */
  sinceStep: number;
}

/**
 * `deferMs`: when the report is not cached yet, wait this long before the pass over every output, so that the
 * requests of the replay's first frame are served first (the trajectory page asks for both at once).
 */
export async function getTestReport(ctx: ServiceContext, id: string, opts: { deferMs?: number } = {}): Promise<TestReport> {
  authorize(ctx, "trajectory:read");
  const t = await getTrajectoryDetail(ctx.db, id);
  if (!t) throw new AppError("NOT_FOUND", `No trajectory with id ${id}`);
  const key = `${t.id}:${t.stepCount}`;
  const hit = cache().get(key);
  if (hit) return hit;
  if (opts.deferMs) await new Promise((r) => setTimeout(r, opts.deferMs));
  const tracker = new TestTracker();
  for (let i = 0; i < t.stepCount; i += BATCH) {
    for (const s of await findStepOutputs(ctx.db, t.id, i, i + BATCH)) tracker.add(s.index, s.observation);
  }
  const sinceStep = t.parent?.forkStepIndex !== null && t.parent?.forkStepIndex !== undefined ? t.parent.forkStepIndex + 1 : 0;
  const changed = tracker.changed(sinceStep);
  const report: TestReport = {
    verifierOutput: t.verifierOutput,
    verifierTests: t.verifierOutput ? parseTestResults(t.verifierOutput) : [],
    testsSeen: tracker.seen,
    changed: changed.slice(0, SHOWN_TESTS).map(trim),
    changedTotal: changed.length,
    sinceStep,
  };
  cache().set(key, report);
  if (cache().size > MAX_CACHED) cache().delete(cache().keys().next().value!);
  return report;
}
