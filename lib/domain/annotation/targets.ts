/**
 * What a label is about. Each target has one canonical key, so "one label per annotator per target" is a unique
 * index: trajectory `traj:<id>`, step range `steps:<id>:<a>-<b>`, fork point `fork:<id>:<step>`, attempt `attempt:<id>`.
 */
import { z } from "zod";
import type { TargetType } from "./label-schema.ts";

/** A target as written by people and files: absent = the whole trajectory (or the attempt, for an attempt). */
export const targetInputSchema = z.union([
  z.object({ steps: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]) }).strict(),
  z.object({ forkStep: z.number().int().nonnegative() }).strict(),
  z.object({ attempt: z.literal(true) }).strict(),
  z.object({}).strict(),
]);
export type TargetInput = z.infer<typeof targetInputSchema>;

export interface Target {
  type: TargetType;
  key: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  forkStep: number | null;
}

export interface TargetFacts {
  trajectoryId: string;
  stepCount: number;
  isAttempt: boolean;
}

/**
 * Resolve a target input against the trajectory and the schema's allowed targets. A whole-trajectory target on a
 * recovery attempt is the attempt when the schema labels attempts.
 */
export function resolveTarget(
  input: TargetInput | undefined,
  facts: TargetFacts,
  allowed: readonly TargetType[],
): { ok: true; target: Target } | { ok: false; message: string } {
  const id = facts.trajectoryId;
  let target: Target;
  if (input && "steps" in input) {
    const [a, b] = input.steps;
    if (a > b) return { ok: false, message: `step range ${a}-${b} ends before it starts` };
    if (b >= facts.stepCount) return { ok: false, message: `step ${b} is outside the trajectory (it has ${facts.stepCount} steps)` };
    target = { type: "step_range", key: `steps:${id}:${a}-${b}`, trajectoryId: id, stepStart: a, stepEnd: b, forkStep: null };
  } else if (input && "forkStep" in input) {
    target = {
      type: "fork_point",
      key: `fork:${id}:${input.forkStep}`,
      trajectoryId: id,
      stepStart: input.forkStep,
      stepEnd: input.forkStep,
      forkStep: input.forkStep,
    };
  } else if ((input && "attempt" in input) || (facts.isAttempt && allowed.includes("attempt"))) {
    if (!facts.isAttempt) return { ok: false, message: "this trajectory is not a recovery attempt" };
    target = { type: "attempt", key: `attempt:${id}`, trajectoryId: id, stepStart: null, stepEnd: null, forkStep: null };
  } else {
    target = { type: "trajectory", key: `traj:${id}`, trajectoryId: id, stepStart: null, stepEnd: null, forkStep: null };
  }
  if (!allowed.includes(target.type))
    return {
      ok: false,
      message: `this schema labels ${allowed.join(", ").replace(/_/g, " ")} targets, not a ${target.type.replace("_", " ")}`,
    };
  return { ok: true, target };
}

/** Human text for a target: one formatter, kept in its own file (history, lists, panels, disagreements). */
export { describeTarget } from "./describe-target.ts";
