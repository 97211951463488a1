-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN "host" TEXT;
ALTER TABLE "ImportJob" ADD COLUMN "pid" INTEGER;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Trajectory" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "externalId" TEXT,
    "contentHash" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'unknown',
    "reward" REAL,
    "verifierOutput" TEXT,
    "failureMode" TEXT,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "durationMs" INTEGER,
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "errorStepCount" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "sourceFormat" TEXT NOT NULL,
    "sourceFile" TEXT,
    "metadata" TEXT,
    "parentId" TEXT,
    "forkStepIndex" INTEGER,
    "forkPointId" TEXT,
    "attemptIndex" INTEGER,
    "forkInferred" BOOLEAN NOT NULL DEFAULT false,
    "pendingParentRef" TEXT,
    "firstErrorCategory" TEXT,
    "firstErrorStep" INTEGER,
    "forkPointCount" INTEGER NOT NULL DEFAULT 0,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "recoveryRate" REAL,
    "annotationCount" INTEGER NOT NULL DEFAULT 0,
    "importJobId" TEXT,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "importWarnings" TEXT,
    "warningCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Trajectory_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Trajectory" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_forkPointId_fkey" FOREIGN KEY ("forkPointId") REFERENCES "ForkPoint" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_importJobId_fkey" FOREIGN KEY ("importJobId") REFERENCES "ImportJob" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Trajectory" ("annotationCount", "attemptCount", "attemptIndex", "contentHash", "durationMs", "endedAt", "errorStepCount", "externalId", "failureMode", "firstErrorCategory", "firstErrorStep", "forkInferred", "forkPointCount", "forkPointId", "forkStepIndex", "id", "importJobId", "importedAt", "inputTokens", "metadata", "outcome", "outputTokens", "parentId", "pendingParentRef", "recoveryRate", "reward", "runId", "sourceFile", "sourceFormat", "startedAt", "stepCount", "taskId", "verifierOutput") SELECT "annotationCount", "attemptCount", "attemptIndex", "contentHash", "durationMs", "endedAt", "errorStepCount", "externalId", "failureMode", "firstErrorCategory", "firstErrorStep", "forkInferred", "forkPointCount", "forkPointId", "forkStepIndex", "id", "importJobId", "importedAt", "inputTokens", "metadata", "outcome", "outputTokens", "parentId", "pendingParentRef", "recoveryRate", "reward", "runId", "sourceFile", "sourceFormat", "startedAt", "stepCount", "taskId", "verifierOutput" FROM "Trajectory";
DROP TABLE "Trajectory";
ALTER TABLE "new_Trajectory" RENAME TO "Trajectory";
CREATE UNIQUE INDEX "Trajectory_externalId_key" ON "Trajectory"("externalId");
CREATE UNIQUE INDEX "Trajectory_contentHash_key" ON "Trajectory"("contentHash");
CREATE INDEX "Trajectory_runId_importedAt_idx" ON "Trajectory"("runId", "importedAt");
CREATE INDEX "Trajectory_taskId_runId_idx" ON "Trajectory"("taskId", "runId");
CREATE INDEX "Trajectory_outcome_importedAt_idx" ON "Trajectory"("outcome", "importedAt");
CREATE INDEX "Trajectory_importedAt_idx" ON "Trajectory"("importedAt");
CREATE INDEX "Trajectory_reward_idx" ON "Trajectory"("reward");
CREATE INDEX "Trajectory_stepCount_idx" ON "Trajectory"("stepCount");
CREATE INDEX "Trajectory_durationMs_idx" ON "Trajectory"("durationMs");
CREATE INDEX "Trajectory_firstErrorCategory_idx" ON "Trajectory"("firstErrorCategory");
CREATE INDEX "Trajectory_parentId_attemptIndex_idx" ON "Trajectory"("parentId", "attemptIndex");
CREATE INDEX "Trajectory_forkPointId_idx" ON "Trajectory"("forkPointId");
CREATE INDEX "Trajectory_importJobId_idx" ON "Trajectory"("importJobId");
CREATE INDEX "Trajectory_pendingParentRef_idx" ON "Trajectory"("pendingParentRef");
CREATE INDEX "Trajectory_warningCount_idx" ON "Trajectory"("warningCount");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
