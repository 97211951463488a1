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
