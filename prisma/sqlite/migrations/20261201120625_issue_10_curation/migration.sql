-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN "labels" TEXT;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN "frozenAt" DATETIME;
ALTER TABLE "DatasetVersion" ADD COLUMN "manifest" TEXT;

-- CreateTable
CREATE TABLE "HeldOutTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmark" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "reason" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "rules" TEXT,
    "itemKind" TEXT NOT NULL DEFAULT 'trajectory',
    "revision" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Dataset_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Dataset" ("createdAt", "createdById", "description", "id", "name", "updatedAt") SELECT "createdAt", "createdById", "description", "id", "name", "updatedAt" FROM "Dataset";
DROP TABLE "Dataset";
ALTER TABLE "new_Dataset" RENAME TO "Dataset";
CREATE UNIQUE INDEX "Dataset_name_key" ON "Dataset"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "HeldOutTask_externalId_idx" ON "HeldOutTask"("externalId");

-- CreateIndex
CREATE UNIQUE INDEX "HeldOutTask_benchmark_externalId_key" ON "HeldOutTask"("benchmark", "externalId");

-- CreateIndex
CREATE INDEX "ExportJob_datasetId_createdAt_idx" ON "ExportJob"("datasetId", "createdAt");
