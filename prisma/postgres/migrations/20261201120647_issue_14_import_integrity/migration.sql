-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "host" TEXT,
ADD COLUMN     "pid" INTEGER;

-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN     "importWarnings" TEXT,
ADD COLUMN     "warningCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Trajectory_warningCount_idx" ON "Trajectory"("warningCount");
