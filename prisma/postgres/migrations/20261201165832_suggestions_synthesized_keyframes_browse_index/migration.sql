-- DropIndex
DROP INDEX "Trajectory_browse_idx";

-- CreateTable
CREATE TABLE "SynthesizedKeyframe" (
    "trajectoryId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "layoutKey" TEXT NOT NULL,
    "keyframe" TEXT NOT NULL,

    CONSTRAINT "SynthesizedKeyframe_pkey" PRIMARY KEY ("trajectoryId","seq")
);

-- CreateTable
CREATE TABLE "Suggestion" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "schemaId" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetKey" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "stepStart" INTEGER,
    "stepEnd" INTEGER,
    "forkPointId" TEXT,
    "value" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Suggestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SuggestionDecision" (
    "id" TEXT NOT NULL,
    "suggestionKey" TEXT NOT NULL,
    "suggestionId" TEXT,
    "detectedErrorId" TEXT,
    "trajectoryId" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "schemaId" TEXT NOT NULL,
    "suggestedValue" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "value" TEXT,
    "annotationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SuggestionDecision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Suggestion_trajectoryId_idx" ON "Suggestion"("trajectoryId");

-- CreateIndex
CREATE UNIQUE INDEX "Suggestion_schemaId_source_targetKey_key" ON "Suggestion"("schemaId", "source", "targetKey");

-- CreateIndex
CREATE INDEX "SuggestionDecision_trajectoryId_annotatorId_idx" ON "SuggestionDecision"("trajectoryId", "annotatorId");

-- CreateIndex
CREATE INDEX "SuggestionDecision_source_schemaId_suggestedValue_idx" ON "SuggestionDecision"("source", "schemaId", "suggestedValue");

-- CreateIndex
CREATE INDEX "SuggestionDecision_suggestionId_idx" ON "SuggestionDecision"("suggestionId");

-- CreateIndex
CREATE INDEX "SuggestionDecision_detectedErrorId_idx" ON "SuggestionDecision"("detectedErrorId");

-- CreateIndex
CREATE UNIQUE INDEX "SuggestionDecision_suggestionKey_annotatorId_key" ON "SuggestionDecision"("suggestionKey", "annotatorId");

-- CreateIndex
CREATE INDEX "Trajectory_browse_idx" ON "Trajectory"("outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "reward", "stepCount", "durationMs", "importedAt", "warningCount", "forkPointId", "firstErrorStep", "id");

-- AddForeignKey
ALTER TABLE "SynthesizedKeyframe" ADD CONSTRAINT "SynthesizedKeyframe_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Suggestion" ADD CONSTRAINT "Suggestion_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuggestionDecision" ADD CONSTRAINT "SuggestionDecision_suggestionId_fkey" FOREIGN KEY ("suggestionId") REFERENCES "Suggestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuggestionDecision" ADD CONSTRAINT "SuggestionDecision_detectedErrorId_fkey" FOREIGN KEY ("detectedErrorId") REFERENCES "DetectedError"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuggestionDecision" ADD CONSTRAINT "SuggestionDecision_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuggestionDecision" ADD CONSTRAINT "SuggestionDecision_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
