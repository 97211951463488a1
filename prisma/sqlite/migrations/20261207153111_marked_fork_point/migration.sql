-- AlterTable
ALTER TABLE "MarkedTrajectory" ADD COLUMN "forkPointId" TEXT;
ALTER TABLE "MarkedTrajectory" ADD COLUMN "forkCategory" TEXT NOT NULL DEFAULT '';

-- Hand-written below: the marks' triggers (20261206050746_marked_trajectories) carry the trajectory's fork point and
-- its detected category too (fixed once the fork point exists), so the dataset, label and "annotated" facets under a
-- forkError filter test them on this small table. Trajectory's forkPointId changes by update, and by the foreign
-- key's ON DELETE SET NULL when its fork point goes: both reach "Trajectory_marked_update".

DROP TRIGGER "Annotation_marks_insert";
CREATE TRIGGER "Annotation_marks_insert" AFTER INSERT ON "Annotation" BEGIN
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPointId", "forkCategory", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''), 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

DROP TRIGGER "Annotation_marks_update";
CREATE TRIGGER "Annotation_marks_update" AFTER UPDATE OF "trajectoryId" ON "Annotation" WHEN OLD."trajectoryId" IS NOT NEW."trajectoryId" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPointId", "forkCategory", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''), 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

DROP TRIGGER "DatasetItem_marks_insert";
CREATE TRIGGER "DatasetItem_marks_insert" AFTER INSERT ON "DatasetItem" BEGIN
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPointId", "forkCategory", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''), 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

DROP TRIGGER "DatasetItem_marks_update";
CREATE TRIGGER "DatasetItem_marks_update" AFTER UPDATE OF "trajectoryId" ON "DatasetItem" WHEN OLD."trajectoryId" IS NOT NEW."trajectoryId" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPointId", "forkCategory", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''), 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

-- A marked trajectory whose cell key or fork point changes carries the new one (a primary-key probe per updated row).
DROP TRIGGER "Trajectory_marked_update";
CREATE TRIGGER "Trajectory_marked_update" AFTER UPDATE OF "outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId",
  "warningCount", "forkPointId" ON "Trajectory" BEGIN
  UPDATE "MarkedTrajectory" SET "outcome" = NEW."outcome", "runId" = NEW."runId", "taskId" = NEW."taskId",
    "errorCategory" = COALESCE(NEW."firstErrorCategory", ''), "forks" = NEW."forkPointCount" > 0, "attempt" = NEW."parentId" IS NOT NULL,
    "warnings" = NEW."warningCount" > 0, "forkPointId" = NEW."forkPointId",
    "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = NEW."forkPointId"), '')
  WHERE "trajectoryId" = NEW."id";
END;

-- The rows already there.
UPDATE "MarkedTrajectory" SET "forkPointId" = (SELECT t."forkPointId" FROM "Trajectory" t WHERE t."id" = "MarkedTrajectory"."trajectoryId");
UPDATE "MarkedTrajectory" SET "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = "MarkedTrajectory"."forkPointId"), '');
