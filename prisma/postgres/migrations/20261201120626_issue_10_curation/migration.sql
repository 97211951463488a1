-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "itemKind" TEXT NOT NULL DEFAULT 'trajectory',
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rules" TEXT;

-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN     "labels" TEXT;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN     "frozenAt" TIMESTAMP(3),
ADD COLUMN     "manifest" TEXT;

-- CreateTable
CREATE TABLE "HeldOutTask" (
    "id" TEXT NOT NULL,
    "benchmark" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "reason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HeldOutTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rowsWritten" INTEGER NOT NULL DEFAULT 0,
    "rowsTotal" INTEGER NOT NULL DEFAULT 0,
    "bytesWritten" INTEGER NOT NULL DEFAULT 0,
    "filePath" TEXT,
    "error" TEXT,
    "override" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ExportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "HeldOutTask_externalId_idx" ON "HeldOutTask"("externalId");

-- CreateIndex
CREATE UNIQUE INDEX "HeldOutTask_benchmark_externalId_key" ON "HeldOutTask"("benchmark", "externalId");

-- CreateIndex
CREATE INDEX "ExportJob_datasetId_createdAt_idx" ON "ExportJob"("datasetId", "createdAt");
