-- AlterTable
ALTER TABLE "ForkPoint" ADD COLUMN     "attemptCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failureMode" TEXT,
ADD COLUMN     "firstPass" INTEGER,
ADD COLUMN     "knownAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "passedAttempts" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "ForkPoint_mode_idx" ON "ForkPoint"("failureMode", "knownAttempts", "passedAttempts");

-- Backfill every fork point's figures from its attempts and its parent's signatures (the same UPDATE imports run per parent)
UPDATE "ForkPoint" SET
  "attemptCount" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id"),
  "knownAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" IN ('passed', 'failed')),
  "passedAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "firstPass" = (SELECT MIN(a."attemptIndex") FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "failureMode" = (SELECT fs."templateHash" FROM "FailureSignature" fs WHERE fs."trajectoryId" = "ForkPoint"."trajectoryId" AND fs."stepIndex" <= "ForkPoint"."stepIndex" ORDER BY fs."stepIndex" DESC LIMIT 1);
