// The replay's markers facts (errors, fork points, outcome) from a trajectory's detail, for any page that mounts the
// replay (the trajectory page, the queue item page).
import { errorFacts, packErrorFacts } from "@/lib/domain/replay/markers";
import type { getTrajectory } from "@/lib/services/browse/view-trajectory";
import type { ReplayFacts } from "./replay-view";

type Detail = Awaited<ReturnType<typeof getTrajectory>>;

export function replayFactsOf(t: Detail): ReplayFacts {
  return {
    trajectoryId: t.id,
    outcome: t.outcome,
    reward: t.reward,
    errors: packErrorFacts(errorFacts(t.detectedErrors)),
    forks: [
      ...t.forkPoints.map((f) => ({ stepIndex: f.stepIndex, attempts: f.attempts.length, errorCategory: f.errorCategory })),
      ...(t.parent?.forkStepIndex != null
        ? [
            {
              stepIndex: t.parent.forkStepIndex,
              attempts: 1,
              errorCategory: null,
              label: `Forked from the parent after step ${t.parent.forkStepIndex}`,
            },
          ]
        : []),
    ],
  };
}
