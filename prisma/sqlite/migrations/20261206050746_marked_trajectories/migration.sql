-- CreateTable
CREATE TABLE "MarkedTrajectory" (
    "trajectoryId" TEXT NOT NULL PRIMARY KEY,
    "outcome" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "errorCategory" TEXT NOT NULL,
    "forks" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "warnings" INTEGER NOT NULL,
    "marks" INTEGER NOT NULL,
    CONSTRAINT "MarkedTrajectory_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Hand-written below: the triggers that keep MarkedTrajectory exact whatever writes annotations, dataset items or
-- trajectories (Prisma, raw SQL, foreign-key cascades). A row counts the annotations and dataset items referring to
-- its trajectory and is deleted when that reaches 0. The key is derived as TrajectoryFacetCell's is.

CREATE TRIGGER "Annotation_marks_insert" AFTER INSERT ON "Annotation" BEGIN
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

CREATE TRIGGER "Annotation_marks_delete" AFTER DELETE ON "Annotation" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
END;

CREATE TRIGGER "Annotation_marks_update" AFTER UPDATE OF "trajectoryId" ON "Annotation" WHEN OLD."trajectoryId" IS NOT NEW."trajectoryId" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

CREATE TRIGGER "DatasetItem_marks_insert" AFTER INSERT ON "DatasetItem" BEGIN
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

CREATE TRIGGER "DatasetItem_marks_delete" AFTER DELETE ON "DatasetItem" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
END;

CREATE TRIGGER "DatasetItem_marks_update" AFTER UPDATE OF "trajectoryId" ON "DatasetItem" WHEN OLD."trajectoryId" IS NOT NEW."trajectoryId" BEGIN
  UPDATE "MarkedTrajectory" SET "marks" = "marks" - 1 WHERE "trajectoryId" = OLD."trajectoryId";
  DELETE FROM "MarkedTrajectory" WHERE "trajectoryId" = OLD."trajectoryId" AND "marks" <= 0;
  INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
  SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
    t."warningCount" > 0, 1 FROM "Trajectory" t WHERE t."id" = NEW."trajectoryId"
  ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = "marks" + 1;
END;

-- A marked trajectory whose cell key changes carries the new key (a primary-key probe per updated row).
CREATE TRIGGER "Trajectory_marked_update" AFTER UPDATE OF "outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId",
  "warningCount" ON "Trajectory" BEGIN
  UPDATE "MarkedTrajectory" SET "outcome" = NEW."outcome", "runId" = NEW."runId", "taskId" = NEW."taskId",
    "errorCategory" = COALESCE(NEW."firstErrorCategory", ''), "forks" = NEW."forkPointCount" > 0, "attempt" = NEW."parentId" IS NOT NULL,
    "warnings" = NEW."warningCount" > 0
  WHERE "trajectoryId" = NEW."id";
END;

-- The trajectories already marked.
INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
  t."warningCount" > 0, r."c"
FROM (SELECT "trajectoryId", COUNT(*) AS "c" FROM (SELECT "trajectoryId" FROM "Annotation" UNION ALL SELECT "trajectoryId" FROM "DatasetItem")
  GROUP BY 1) r JOIN "Trajectory" t ON t."id" = r."trajectoryId";
