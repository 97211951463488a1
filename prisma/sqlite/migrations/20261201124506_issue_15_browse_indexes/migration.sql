-- DropIndex
DROP INDEX "Trajectory_importedAt_idx";

-- CreateIndex
CREATE INDEX "Trajectory_browse_idx" ON "Trajectory"("outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "reward", "stepCount", "durationMs", "importedAt", "id");

-- CreateIndex
CREATE INDEX "Trajectory_importedAt_id_idx" ON "Trajectory"("importedAt" DESC, "id");
