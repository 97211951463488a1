-- CreateIndex
CREATE INDEX "FailureSignature_recent_idx" ON "FailureSignature"("templateHash", "importedAt", "trajectoryId", "stepIndex");
