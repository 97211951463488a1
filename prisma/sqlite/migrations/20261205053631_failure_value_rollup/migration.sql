-- CreateTable
CREATE TABLE "FailureValueRollup" (
    "templateHash" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "day" DATETIME NOT NULL,
    "steps" INTEGER NOT NULL,

    PRIMARY KEY ("templateHash", "value", "runId", "taskId", "day")
);

-- Backfill from the signatures already stored
INSERT INTO "FailureValueRollup" ("templateHash", "value", "runId", "taskId", "day", "steps")
SELECT fs."templateHash", fs."value", fs."runId", fs."taskId", substr(fs."importedAt", 1, 10) || 'T00:00:00.000+00:00', COUNT(*)
FROM "FailureSignature" fs WHERE fs."value" IS NOT NULL
GROUP BY fs."templateHash", fs."value", fs."runId", fs."taskId", substr(fs."importedAt", 1, 10) || 'T00:00:00.000+00:00';
