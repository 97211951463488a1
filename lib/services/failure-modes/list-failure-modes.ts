// Failure modes across the corpus: what breaks (the signature), how often (trajectories and share of failures), where
// (runs, models, checkpoints), since when, and whether the agent recovers from it (the recovery figures of the fork
// points at that mode, by the same definition as the recovery analytics).
import { authorize, type ServiceContext } from "../context.ts";
import {
  countFailedTrajectories,
  findModeExamples,
  findModeForkCells,
  findModeRuns,
  findModes,
  findModeValues,
} from "../../db/repositories/failure-modes/modes.ts";
import { signaturesMissing } from "../../db/repositories/failure-modes/reindex.ts";
import { findModeLabelValues } from "../../db/repositories/failure-modes/mode-steps.ts";
import { findLabelSchema } from "../../db/repositories/annotation/schemas.ts";
import { ERROR_SCHEMA_KEY } from "../annotation/suggestions/error-schema.ts";
import { findRuns, type RunInfo } from "../../db/repositories/analytics/run-samples.ts";
import { summarizeRecovery, type RecoveryFigures } from "../analytics/get-recovery-analytics.ts";
import type { FailureModeFilter } from "../../validation/failure-modes-params.ts";

export interface FailureMode {
  /** The mode's identity (hash of its template), the `mode` filter of the trajectory table. */
  id: string;
  signature: string;
  kind: string;
  /** The error category: the one labels give most of the mode's labelled steps, else the suggested one. */
  category: string;
  /** Suggested error category (a suggestion from the signature, never a label). */
  suggestedCategory: string;
  /** Error-category labels on the mode's steps (a step labelled two ways counts once per value). */
  labelledSteps: number;
  trajectories: number;
  failedTrajectories: number;
  /** Failed trajectories at this mode over all failed trajectories in scope (null when none failed). */
  shareOfFailures: number | null;
  steps: number;
  values: { value: string; count: number }[];
  runs: { id: string; name: string; trajectories: number }[];
  models: string[];
  checkpoints: string[];
  firstSeen: string;
  lastSeen: string;
  recovery: RecoveryFigures;
  examples: { trajectoryId: string; stepIndex: number }[];
}

export interface FailureModeList {
  modes: FailureMode[];
  /** Modes in scope (the list holds the first `limit`). */
  totalModes: number;
  failedTrajectories: number;
  /** True when the database has failing steps but no signatures: it predates them (run `reindex-failure-modes`). */
  needsReindex: boolean;
}

const TOP_VALUES = 5;
const EXAMPLES = 3;

export async function listFailureModes(
  ctx: ServiceContext,
  filter: FailureModeFilter,
  opts: { limit?: number; modes?: readonly string[] } = {},
): Promise<FailureModeList> {
  authorize(ctx, "trajectory:read");
  const [{ modes: rows, total }, failed, runs, errorSchema] = await Promise.all([
    findModes(ctx.db, filter, opts.limit ?? 50, opts.modes),
    countFailedTrajectories(ctx.db, filter),
    findRuns(ctx.db),
    findLabelSchema(ctx.db, ERROR_SCHEMA_KEY),
  ]);
  const ids = rows.map((r) => r.templateHash);
  const [modeRuns, values, examples, cells, missing, labelled] = await Promise.all([
    findModeRuns(ctx.db, filter, ids),
    findModeValues(ctx.db, filter, ids, TOP_VALUES),
    findModeExamples(ctx.db, filter, ids, EXAMPLES),
    findModeForkCells(ctx.db, filter, ids),
    rows.length ? Promise.resolve(false) : signaturesMissing(ctx.db),
    errorSchema ? findModeLabelValues(ctx.db, filter, ids, errorSchema.id) : Promise.resolve([]),
  ]);
  const runById = new Map<string, RunInfo>(runs.map((r) => [r.id, r]));
  const group = <T extends { templateHash: string }>(xs: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of xs) m.set(x.templateHash, [...(m.get(x.templateHash) ?? []), x]);
    return m;
  };
  const runsOf = group(modeRuns),
    valuesOf = group(values),
    examplesOf = group(examples),
    cellsOf = group(cells),
    labelsOf = group(labelled);
  const modes = rows.map((r): FailureMode => {
    const rs = (runsOf.get(r.templateHash) ?? [])
      .sort((a, b) => b.trajectories - a.trajectories)
      .map((x) => ({ id: x.runId, name: runById.get(x.runId)?.name ?? x.runId, trajectories: x.trajectories }));
    const infos = rs.map((x) => runById.get(x.id)).filter((x): x is RunInfo => !!x);
    const labels = labelsOf.get(r.templateHash) ?? [];
    return {
      id: r.templateHash,
      signature: r.template,
      kind: r.kind,
      category: labelledCategory(labels) ?? r.category,
      suggestedCategory: r.category,
      labelledSteps: labels.reduce((n, l) => n + l.steps, 0),
      trajectories: r.trajectories,
      failedTrajectories: r.failedTrajectories,
      shareOfFailures: failed ? r.failedTrajectories / failed : null,
      steps: r.steps,
      values: (valuesOf.get(r.templateHash) ?? []).map(({ value, count }) => ({ value, count })),
      runs: rs,
      models: distinct(infos.map((i) => i.model)),
      checkpoints: distinct(infos.map((i) => i.checkpoint)),
      firstSeen: r.firstSeen,
      lastSeen: r.lastSeen,
      recovery: summarizeRecovery(
        (cellsOf.get(r.templateHash) ?? []).map((c) => ({
          category: r.category,
          n: c.n,
          c: c.c,
          forkPoints: c.forkPoints,
          attempts: c.attempts,
          labelledForkPoints: 0,
          firstSuccessSum: c.firstSum,
          firstSuccessCount: c.firstCount,
        })),
      ),
      examples: (examplesOf.get(r.templateHash) ?? []).map(({ trajectoryId, stepIndex }) => ({ trajectoryId, stepIndex })),
    };
  });
  return { modes, totalModes: total, failedTrajectories: failed, needsReindex: missing };
}

/** The value most labelled steps carry (ties: the smaller value, for a stable answer); none without labels. */
function labelledCategory(labels: { value: string; steps: number }[]): string | null {
  const best = [...labels].sort((a, b) => b.steps - a.steps || (a.value < b.value ? -1 : 1))[0];
  return best?.value ?? null;
}

function distinct(xs: (string | null)[]): string[] {
  return [...new Set(xs.filter((x): x is string => !!x))].sort();
}
