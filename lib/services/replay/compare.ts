// Side-by-side comparison of recovery attempts that branch from one fork point: the shared prefix once, each
// attempt's commands after the fork, and a diff of the command sequences against the first attempt.
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { findStepHeads, getTrajectoryDetail } from "../../db/repositories/browse/trajectory-detail.ts";
import { diffCommands, type DiffOp } from "../../domain/replay/command-diff.ts";
import { AppError } from "../../errors.ts";
import { summarizeStep } from "./session.ts";
import type { StepSummary } from "../../domain/replay/recording.ts";

export const MAX_COMPARED = 4;

/** Tolerant URL schema for the compare page: bad values fall back to "first attempts of the first fork". */
export const compareLinkSchema = z.object({
  fork: z.coerce.number().int().nonnegative().optional().catch(undefined),
  /** "a,b" or repeated ?attempts=a&attempts=b (what a plain GET form with checkboxes sends). */
  attempts: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .catch(undefined)
    .transform((v) =>
      [...new Set((Array.isArray(v) ? v : (v ?? "").split(",")).map((x) => x.trim()).filter(Boolean))].slice(0, MAX_COMPARED),
    ),
});

export interface ComparedAttempt {
  id: string;
  attemptIndex: number | null;
  outcome: string;
  reward: number | null;
  stepCount: number;
  /** Steps after the fork point. */
  steps: StepSummary[];
}

export interface AttemptComparison {
  parentId: string;
  taskName: string;
  forkStepIndex: number;
  errorCategory: string | null;
  /** Every attempt of this fork point, for the picker. */
  available: { id: string; attemptIndex: number | null; outcome: string; reward: number | null; stepCount: number }[];
  /** The parent's steps up to and including the fork step: identical for every attempt, shown once. */
  sharedPrefix: StepSummary[];
  attempts: ComparedAttempt[];
  /** diffs[i]: commands of attempts[0] → attempts[i + 1]. */
  diffs: DiffOp[][];
}

const commandsOf = (steps: StepSummary[]) => steps.filter((s) => s.command !== null).map((s) => s.command!);

export async function compareAttempts(
  ctx: ServiceContext,
  parentId: string,
  link: z.infer<typeof compareLinkSchema>,
): Promise<AttemptComparison> {
  authorize(ctx, "trajectory:read");
  const parent = await getTrajectoryDetail(ctx.db, parentId);
  if (!parent) throw new AppError("NOT_FOUND", `No trajectory with id ${parentId}`);
  const fork = link.fork === undefined ? parent.forkPoints[0] : parent.forkPoints.find((f) => f.stepIndex === link.fork);
  if (!fork)
    throw new AppError("NOT_FOUND", `Trajectory ${parentId} has no fork point${link.fork === undefined ? "" : ` after step ${link.fork}`}`);
  const known = new Set(fork.attempts.map((a) => a.id));
  const unknown = link.attempts.filter((a) => !known.has(a));
  if (unknown.length) throw new AppError("NOT_FOUND", `Not attempts of the fork after step ${fork.stepIndex}: ${unknown.join(", ")}`);
  // Fewer than two picked: fill up with the fork's other attempts, so there is always something to compare.
  const ids = [...link.attempts, ...fork.attempts.map((a) => a.id).filter((a) => !link.attempts.includes(a))].slice(
    0,
    Math.max(2, link.attempts.length),
  );
  const chosen = ids.map((id) => fork.attempts.find((a) => a.id === id)!);
  const prefix = (await findStepHeads(ctx.db, parent.id, 0, fork.stepIndex + 1)).map(summarizeStep);
  const attempts = await Promise.all(
    chosen.map(async (a): Promise<ComparedAttempt> => ({
      ...a,
      steps: (await findStepHeads(ctx.db, a.id, fork.stepIndex + 1)).map(summarizeStep),
    })),
  );
  const base = attempts[0] ? commandsOf(attempts[0].steps) : [];
  return {
    parentId: parent.id,
    taskName: parent.task.name,
    forkStepIndex: fork.stepIndex,
    errorCategory: fork.errorCategory,
    available: fork.attempts,
    sharedPrefix: prefix,
    attempts,
    diffs: attempts.slice(1).map((a) => diffCommands(base, commandsOf(a.steps))),
  };
}
