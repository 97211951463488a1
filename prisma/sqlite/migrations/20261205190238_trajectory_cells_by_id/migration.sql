-- CreateIndex
CREATE INDEX "Trajectory_cells_by_id_idx" ON "Trajectory"("id", "outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "warningCount", "forkPointId");
