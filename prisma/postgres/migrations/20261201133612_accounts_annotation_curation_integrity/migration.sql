-- DropIndex
DROP INDEX "Trajectory_importedAt_idx";

-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "itemKind" TEXT NOT NULL DEFAULT 'trajectory',
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rules" TEXT;

-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN     "labels" TEXT;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN     "frozenAt" TIMESTAMP(3),
ADD COLUMN     "manifest" TEXT;

-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "host" TEXT,
ADD COLUMN     "pid" INTEGER;

-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN     "importWarnings" TEXT,
ADD COLUMN     "warningCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "displayUsername" TEXT,
ADD COLUMN     "emailVerified" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "image" TEXT,
ADD COLUMN     "username" TEXT;

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "password" TEXT,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" TEXT,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "details" TEXT,
    "ipAddress" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationEvent" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GoldLabel" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GoldLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationQueue" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "filter" TEXT NOT NULL,
    "schemaKeys" TEXT NOT NULL,
    "labelsPerItem" INTEGER NOT NULL DEFAULT 1,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "reservationMinutes" INTEGER NOT NULL DEFAULT 30,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationQueue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueItem" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "doneCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "QueueItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueAssignee" (
    "queueId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    CONSTRAINT "QueueAssignee_pkey" PRIMARY KEY ("queueId","userId")
);

-- CreateTable
CREATE TABLE "QueueSlot" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "slot" INTEGER,
    "annotatorId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "skipReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QueueSlot_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "Trajectory_warningCount_idx" ON "Trajectory"("warningCount");

-- CreateIndex
CREATE INDEX "Trajectory_browse_idx" ON "Trajectory"("outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "reward", "stepCount", "durationMs", "importedAt", "warningCount", "forkPointId", "id");

-- CreateIndex
CREATE INDEX "Trajectory_importedAt_id_idx" ON "Trajectory"("importedAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GoldLabel" ADD CONSTRAINT "GoldLabel_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueAssignee" ADD CONSTRAINT "QueueAssignee_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueAssignee" ADD CONSTRAINT "QueueAssignee_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
