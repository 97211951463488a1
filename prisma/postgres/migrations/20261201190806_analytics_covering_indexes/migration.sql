-- DropIndex
DROP INDEX "Trajectory_forkPointId_idx";

-- CreateIndex
CREATE INDEX "Trajectory_attempts_idx" ON "Trajectory"("forkPointId", "outcome", "attemptIndex", "reward", "runId", "taskId");

-- CreateIndex
CREATE INDEX "Trajectory_rollouts_idx" ON "Trajectory"("parentId", "runId", "taskId", "outcome");

-- CreateIndex
CREATE INDEX "Trajectory_outcome_reward_idx" ON "Trajectory"("outcome", "reward", "taskId", "runId");

-- CreateIndex
CREATE INDEX "Trajectory_lengths_idx" ON "Trajectory"("stepCount", "firstErrorStep", "runId", "taskId", "parentId");
