// Recovery segments: the shape of recovery-training data. The failed parent's steps up to and including the fork
// step are the context; then come the steps the recovery attempt took itself (its copied prefix is dropped, because
// it repeats the parent's context).
import type { StepInput } from "../trajectory.ts";
import { stepContentHash } from "../hash.ts";
import type { StoredTrajectory } from "./types.ts";

export interface Segment {
  /** Steps shown to the model as context (from the parent). */
  context: StepInput[];
  /** Steps the model is trained to produce (the attempt's own). */
  recovery: StepInput[];
}

/** Why a trajectory cannot be a recovery segment, or null when it can. */
export function segmentIneligibility(t: StoredTrajectory): string | null {
  if (!t.trajectory.fork || t.parentDbId === null) return "not a recovery attempt";
  if (t.trajectory.outcome !== "passed") return "attempt did not pass";
  return null;
}

export function buildSegment(parent: StoredTrajectory, attempt: StoredTrajectory): Segment {
  const fork = attempt.trajectory.fork;
  if (!fork) throw new Error(`trajectory ${attempt.dbId} is not a recovery attempt`);
  const context = parent.trajectory.steps.slice(0, fork.stepIndex + 1);
  return { context, recovery: ownSteps(attempt.trajectory.steps, context) };
}

/**
 * The attempt's own steps. Sources mark the copied prefix (isCopiedContext); when none is marked but the attempt
 * starts with exactly the parent's context (inferred forks), that prefix is dropped; otherwise all steps are its own.
 */
function ownSteps(steps: StepInput[], context: StepInput[]): StepInput[] {
  if (steps.some((s) => s.isCopiedContext)) return steps.filter((s) => !s.isCopiedContext);
  const repeats = context.length > 0 && context.every((c, i) => steps[i] !== undefined && stepContentHash(steps[i]) === stepContentHash(c));
  return repeats ? steps.slice(context.length) : steps;
}

/** The steps of an item in training order: a whole trajectory minus copied context, or context + recovery. */
export function itemSteps(t: StoredTrajectory, parent: StoredTrajectory | null): { context: StepInput[]; target: StepInput[] } {
  if (parent) {
    const s = buildSegment(parent, t);
    return { context: s.context, target: s.recovery };
  }
  return { context: [], target: t.trajectory.steps.filter((s) => !s.isCopiedContext) };
}
