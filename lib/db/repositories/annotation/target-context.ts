// The facts a label's default target is chosen from (lib/domain/annotation/default-target.ts): fork points, the first
// detected error, the step of a suggestion the annotator accepted, and what happened at a step (for the words).
import type { Db } from "../../client.ts";
import type { TargetContext, StepGist } from "../../../domain/annotation/default-target.ts";

export async function loadTargetContext(db: Db, trajectoryId: string, annotatorId: string): Promise<TargetContext | null> {
  const [t, forks, firstError, accepted] = await Promise.all([
    db.trajectory.findUnique({ where: { id: trajectoryId }, select: { stepCount: true, parentId: true } }),
    db.forkPoint.findMany({ where: { trajectoryId }, select: { stepIndex: true } }),
    db.detectedError.findFirst({ where: { trajectoryId }, orderBy: { stepIndex: "asc" }, select: { stepIndex: true } }),
    db.suggestionDecision.findFirst({
      where: { trajectoryId, annotatorId, decision: { in: ["accepted", "changed"] } },
      orderBy: { createdAt: "desc" },
      select: { detectedError: { select: { stepIndex: true } }, suggestion: { select: { stepStart: true } } },
    }),
  ]);
  if (!t) return null;
  return {
    isAttempt: t.parentId !== null,
    stepCount: t.stepCount,
    forkSteps: forks.map((f) => f.stepIndex),
    firstErrorStep: firstError?.stepIndex ?? null,
    acceptedStep: accepted?.detectedError?.stepIndex ?? accepted?.suggestion?.stepStart ?? null,
  };
}

export async function findStepGist(db: Db, trajectoryId: string, index: number): Promise<StepGist | null> {
  const s = await db.step.findUnique({ where: { trajectoryId_index: { trajectoryId, index } }, select: { action: true, exitCode: true } });
  // Only the first line is shown: a long heredoc need not cross the wire.
  return s ? { action: s.action?.slice(0, 400) ?? null, exitCode: s.exitCode } : null;
}
