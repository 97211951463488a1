-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN "labels" TEXT;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN "frozenAt" DATETIME;
ALTER TABLE "DatasetVersion" ADD COLUMN "manifest" TEXT;

-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN "host" TEXT;
ALTER TABLE "ImportJob" ADD COLUMN "pid" INTEGER;

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "password" TEXT,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" DATETIME,
    "refreshTokenExpiresAt" DATETIME,
    "scope" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" TEXT,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "details" TEXT,
    "ipAddress" TEXT
);

-- CreateTable
CREATE TABLE "AnnotationEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "annotationId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "schemaId" TEXT NOT NULL,
    "targetKey" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "oldValue" TEXT,
    "newValue" TEXT,
    "oldComment" TEXT,
    "newComment" TEXT,
    "version" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "GoldLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "schemaId" TEXT NOT NULL,
    "targetKey" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "stepStart" INTEGER,
    "stepEnd" INTEGER,
    "value" TEXT NOT NULL,
    "comment" TEXT,
    "adjudicatorId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "GoldLabel_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnnotationQueue" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "filter" TEXT NOT NULL,
    "schemaKeys" TEXT NOT NULL,
    "labelsPerItem" INTEGER NOT NULL DEFAULT 1,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "reservationMinutes" INTEGER NOT NULL DEFAULT 30,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "QueueItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "queueId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "doneCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "QueueItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueueItem_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QueueAssignee" (
    "queueId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("queueId", "userId"),
    CONSTRAINT "QueueAssignee_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueueAssignee_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QueueSlot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "queueId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "slot" INTEGER,
    "annotatorId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "skipReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "QueueSlot_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueueSlot_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueueSlot_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
CREATE INDEX "Trajectory_reward_idx" ON "Trajectory"("reward");
CREATE INDEX "Trajectory_stepCount_idx" ON "Trajectory"("stepCount");
CREATE INDEX "Trajectory_durationMs_idx" ON "Trajectory"("durationMs");
CREATE INDEX "Trajectory_firstErrorCategory_idx" ON "Trajectory"("firstErrorCategory");
CREATE INDEX "Trajectory_parentId_attemptIndex_idx" ON "Trajectory"("parentId", "attemptIndex");
CREATE INDEX "Trajectory_forkPointId_idx" ON "Trajectory"("forkPointId");
CREATE INDEX "Trajectory_importJobId_idx" ON "Trajectory"("importJobId");
CREATE INDEX "Trajectory_pendingParentRef_idx" ON "Trajectory"("pendingParentRef");
CREATE INDEX "Trajectory_warningCount_idx" ON "Trajectory"("warningCount");
CREATE INDEX "Trajectory_browse_idx" ON "Trajectory"("outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "reward", "stepCount", "durationMs", "importedAt", "warningCount", "forkPointId", "id");
CREATE INDEX "Trajectory_importedAt_id_idx" ON "Trajectory"("importedAt" DESC, "id");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "username" TEXT,
    "displayUsername" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT
);
INSERT INTO "new_User" ("createdAt", "email", "id", "name", "role", "updatedAt") SELECT "createdAt", "email", "id", "name", "role", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_name_key" ON "User"("name");
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "AuditEvent_action_at_idx" ON "AuditEvent"("action", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_actorId_at_idx" ON "AuditEvent"("actorId", "at");

-- CreateIndex
CREATE INDEX "AnnotationEvent_annotationId_createdAt_idx" ON "AnnotationEvent"("annotationId", "createdAt");

-- CreateIndex
CREATE INDEX "AnnotationEvent_trajectoryId_createdAt_idx" ON "AnnotationEvent"("trajectoryId", "createdAt");

-- CreateIndex
CREATE INDEX "GoldLabel_trajectoryId_idx" ON "GoldLabel"("trajectoryId");

-- CreateIndex
CREATE UNIQUE INDEX "GoldLabel_schemaId_targetKey_key" ON "GoldLabel"("schemaId", "targetKey");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationQueue_name_key" ON "AnnotationQueue"("name");

-- CreateIndex
CREATE INDEX "QueueItem_queueId_doneCount_position_idx" ON "QueueItem"("queueId", "doneCount", "position");

-- CreateIndex
CREATE INDEX "QueueItem_trajectoryId_idx" ON "QueueItem"("trajectoryId");

-- CreateIndex
CREATE UNIQUE INDEX "QueueItem_queueId_trajectoryId_key" ON "QueueItem"("queueId", "trajectoryId");

-- CreateIndex
CREATE UNIQUE INDEX "QueueItem_queueId_position_key" ON "QueueItem"("queueId", "position");

-- CreateIndex
CREATE INDEX "QueueAssignee_userId_idx" ON "QueueAssignee"("userId");

-- CreateIndex
CREATE INDEX "QueueSlot_queueId_annotatorId_status_idx" ON "QueueSlot"("queueId", "annotatorId", "status");

-- CreateIndex
CREATE INDEX "QueueSlot_queueId_status_idx" ON "QueueSlot"("queueId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "QueueSlot_itemId_slot_key" ON "QueueSlot"("itemId", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "QueueSlot_itemId_annotatorId_key" ON "QueueSlot"("itemId", "annotatorId");

-- CreateIndex
CREATE INDEX "HeldOutTask_externalId_idx" ON "HeldOutTask"("externalId");

-- CreateIndex
CREATE UNIQUE INDEX "HeldOutTask_benchmark_externalId_key" ON "HeldOutTask"("benchmark", "externalId");

-- CreateIndex
CREATE INDEX "ExportJob_datasetId_createdAt_idx" ON "ExportJob"("datasetId", "createdAt");

-- CreateIndex
CREATE INDEX "Annotation_forkPointId_idx" ON "Annotation"("forkPointId");
