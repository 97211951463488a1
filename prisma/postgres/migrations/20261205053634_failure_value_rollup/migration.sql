-- CreateTable
CREATE TABLE "FailureValueRollup" (
    "templateHash" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "steps" INTEGER NOT NULL,

    CONSTRAINT "FailureValueRollup_pkey" PRIMARY KEY ("templateHash","value","runId","taskId","day")
);

-- Backfill from the signatures already stored
INSERT INTO "FailureValueRollup" ("templateHash", "value", "runId", "taskId", "day", "steps")
SELECT fs."templateHash", fs."value", fs."runId", fs."taskId", date_trunc('day', fs."importedAt"), COUNT(*)
FROM "FailureSignature" fs WHERE fs."value" IS NOT NULL
GROUP BY fs."templateHash", fs."value", fs."runId", fs."taskId", date_trunc('day', fs."importedAt");
