-- CreateTable
CREATE TABLE "FailureModeRollup" (
    "templateHash" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "template" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "trajectories" INTEGER NOT NULL,
    "failedTrajectories" INTEGER NOT NULL,
    "steps" INTEGER NOT NULL,
    "firstSeen" TIMESTAMP(3) NOT NULL,
    "lastSeen" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FailureModeRollup_pkey" PRIMARY KEY ("templateHash","runId","taskId","day")
);

-- CreateIndex
CREATE INDEX "FailureModeRollup_run_idx" ON "FailureModeRollup"("runId", "templateHash");

-- Backfill from the signatures already stored (the same sums imports keep up to date from now on)
INSERT INTO "FailureModeRollup" ("templateHash", "runId", "taskId", "day", "template", "kind", "category", "trajectories", "failedTrajectories", "steps", "firstSeen", "lastSeen")
SELECT fs."templateHash", fs."runId", fs."taskId", date_trunc('day', fs."importedAt"), MIN(fs."template"), MIN(fs."kind"), MIN(fs."category"),
  COUNT(DISTINCT fs."trajectoryId"), COUNT(DISTINCT CASE WHEN fs."outcome" = 'failed' THEN fs."trajectoryId" END), COUNT(*),
  MIN(fs."importedAt"), MAX(fs."importedAt")
FROM "FailureSignature" fs GROUP BY fs."templateHash", fs."runId", fs."taskId", date_trunc('day', fs."importedAt");
