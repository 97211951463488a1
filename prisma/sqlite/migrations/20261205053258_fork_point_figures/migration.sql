-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ForkPoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "trajectoryId" TEXT NOT NULL,
    "stepIndex" INTEGER NOT NULL,
    "errorCategory" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'explicit',
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "knownAttempts" INTEGER NOT NULL DEFAULT 0,
    "passedAttempts" INTEGER NOT NULL DEFAULT 0,
    "firstPass" INTEGER,
    "failureMode" TEXT,
    CONSTRAINT "ForkPoint_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ForkPoint" ("createdAt", "errorCategory", "id", "note", "origin", "stepIndex", "trajectoryId") SELECT "createdAt", "errorCategory", "id", "note", "origin", "stepIndex", "trajectoryId" FROM "ForkPoint";
DROP TABLE "ForkPoint";
ALTER TABLE "new_ForkPoint" RENAME TO "ForkPoint";
CREATE INDEX "ForkPoint_mode_idx" ON "ForkPoint"("failureMode", "knownAttempts", "passedAttempts");
CREATE UNIQUE INDEX "ForkPoint_trajectoryId_stepIndex_key" ON "ForkPoint"("trajectoryId", "stepIndex");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill every fork point's figures from its attempts and its parent's signatures (the same UPDATE imports run per parent)
UPDATE "ForkPoint" SET
  "attemptCount" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id"),
  "knownAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" IN ('passed', 'failed')),
  "passedAttempts" = (SELECT COUNT(*) FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "firstPass" = (SELECT MIN(a."attemptIndex") FROM "Trajectory" a WHERE a."forkPointId" = "ForkPoint"."id" AND a."outcome" = 'passed'),
  "failureMode" = (SELECT fs."templateHash" FROM "FailureSignature" fs WHERE fs."trajectoryId" = "ForkPoint"."trajectoryId" AND fs."stepIndex" <= "ForkPoint"."stepIndex" ORDER BY fs."stepIndex" DESC LIMIT 1);
