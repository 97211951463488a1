-- CreateIndex
CREATE INDEX "Annotation_forkPointId_idx" ON "Annotation"("forkPointId");
