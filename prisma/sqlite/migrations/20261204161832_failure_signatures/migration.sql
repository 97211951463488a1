-- CreateTable
CREATE TABLE "FailureSignature" (
    "trajectoryId" TEXT NOT NULL,
    "stepIndex" INTEGER NOT NULL,
    "templateHash" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "values" TEXT NOT NULL,
    "value" TEXT,
    "category" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL,

    PRIMARY KEY ("trajectoryId", "stepIndex"),
    CONSTRAINT "FailureSignature_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "FailureSignature_mode_idx" ON "FailureSignature"("templateHash", "runId", "trajectoryId", "outcome", "importedAt", "taskId");

-- CreateIndex
CREATE INDEX "FailureSignature_run_idx" ON "FailureSignature"("runId", "templateHash", "trajectoryId");
