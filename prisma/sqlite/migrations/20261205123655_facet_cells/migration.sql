-- CreateTable
CREATE TABLE "TrajectoryFacetCell" (
    "outcome" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "errorCategory" TEXT NOT NULL,
    "forks" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "warnings" INTEGER NOT NULL,
    "forkPoint" INTEGER NOT NULL,
    "forkCategory" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "rewardMin" REAL,
    "rewardMax" REAL,
    "stepsMin" INTEGER,
    "stepsMax" INTEGER,
    "durationMin" INTEGER,
    "durationMax" INTEGER,
    "errorStepMin" INTEGER,
    "errorStepMax" INTEGER,

    PRIMARY KEY ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory")
);

-- Hand-written below: the triggers that keep TrajectoryFacetCell exact whatever writes Trajectory (the bulk writers,
-- Prisma updates, raw SQL, foreign-key actions). An UPDATE that changes none of the cell columns (annotation counts,
-- say) changes no cell. When a row leaves a cell, each bound it may have held is recomputed from Trajectory, and a
-- cell left empty is deleted.

CREATE TRIGGER "Trajectory_facet_insert" AFTER INSERT ON "Trajectory" BEGIN
  INSERT INTO "TrajectoryFacetCell" ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
  VALUES (NEW."outcome", NEW."runId", NEW."taskId", COALESCE(NEW."firstErrorCategory", ''), NEW."forkPointCount" > 0,
    NEW."parentId" IS NOT NULL, NEW."warningCount" > 0, NEW."forkPointId" IS NOT NULL, COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = NEW."forkPointId"), ''), 1,
    NEW."reward", NEW."reward", NEW."stepCount", NEW."stepCount", NEW."durationMs", NEW."durationMs", NEW."firstErrorStep", NEW."firstErrorStep")
  ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory") DO UPDATE SET "n" = "n" + 1,
    "rewardMin" = CASE WHEN "rewardMin" IS NULL OR excluded."rewardMin" < "rewardMin" THEN excluded."rewardMin" ELSE "rewardMin" END,
    "rewardMax" = CASE WHEN "rewardMax" IS NULL OR excluded."rewardMax" > "rewardMax" THEN excluded."rewardMax" ELSE "rewardMax" END,
    "stepsMin" = CASE WHEN "stepsMin" IS NULL OR excluded."stepsMin" < "stepsMin" THEN excluded."stepsMin" ELSE "stepsMin" END,
    "stepsMax" = CASE WHEN "stepsMax" IS NULL OR excluded."stepsMax" > "stepsMax" THEN excluded."stepsMax" ELSE "stepsMax" END,
    "durationMin" = CASE WHEN "durationMin" IS NULL OR excluded."durationMin" < "durationMin" THEN excluded."durationMin" ELSE "durationMin" END,
    "durationMax" = CASE WHEN "durationMax" IS NULL OR excluded."durationMax" > "durationMax" THEN excluded."durationMax" ELSE "durationMax" END,
    "errorStepMin" = CASE WHEN "errorStepMin" IS NULL OR excluded."errorStepMin" < "errorStepMin" THEN excluded."errorStepMin" ELSE "errorStepMin" END,
    "errorStepMax" = CASE WHEN "errorStepMax" IS NULL OR excluded."errorStepMax" > "errorStepMax" THEN excluded."errorStepMax" ELSE "errorStepMax" END;
END;

CREATE TRIGGER "Trajectory_facet_delete" AFTER DELETE ON "Trajectory" BEGIN
  UPDATE "TrajectoryFacetCell" SET "n" = "n" - 1,
    "rewardMin" = CASE WHEN OLD."reward" <= "rewardMin" THEN (SELECT MIN(t."reward") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "rewardMin" END,
    "rewardMax" = CASE WHEN OLD."reward" >= "rewardMax" THEN (SELECT MAX(t."reward") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "rewardMax" END,
    "stepsMin" = CASE WHEN OLD."stepCount" <= "stepsMin" THEN (SELECT MIN(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "stepsMin" END,
    "stepsMax" = CASE WHEN OLD."stepCount" >= "stepsMax" THEN (SELECT MAX(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "stepsMax" END,
    "durationMin" = CASE WHEN OLD."durationMs" <= "durationMin" THEN (SELECT MIN(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "durationMin" END,
    "durationMax" = CASE WHEN OLD."durationMs" >= "durationMax" THEN (SELECT MAX(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "durationMax" END,
    "errorStepMin" = CASE WHEN OLD."firstErrorStep" <= "errorStepMin" THEN (SELECT MIN(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "errorStepMin" END,
    "errorStepMax" = CASE WHEN OLD."firstErrorStep" >= "errorStepMax" THEN (SELECT MAX(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "errorStepMax" END
  WHERE "outcome" = OLD."outcome" AND "runId" = OLD."runId" AND "taskId" = OLD."taskId" AND "errorCategory" = COALESCE(OLD."firstErrorCategory", '')
    AND "forks" = (OLD."forkPointCount" > 0) AND "attempt" = (OLD."parentId" IS NOT NULL) AND "warnings" = (OLD."warningCount" > 0)
    AND "forkPoint" = (OLD."forkPointId" IS NOT NULL) AND "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '');
  DELETE FROM "TrajectoryFacetCell" WHERE "outcome" = OLD."outcome" AND "runId" = OLD."runId" AND "taskId" = OLD."taskId" AND "errorCategory" = COALESCE(OLD."firstErrorCategory", '')
    AND "forks" = (OLD."forkPointCount" > 0) AND "attempt" = (OLD."parentId" IS NOT NULL) AND "warnings" = (OLD."warningCount" > 0)
    AND "forkPoint" = (OLD."forkPointId" IS NOT NULL) AND "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '') AND "n" <= 0;
END;

CREATE TRIGGER "Trajectory_facet_update" AFTER UPDATE OF "outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId",
  "warningCount", "forkPointId", "reward", "stepCount", "durationMs", "firstErrorStep" ON "Trajectory"
  WHEN OLD."outcome" IS NOT NEW."outcome"
  OR OLD."runId" IS NOT NEW."runId"
  OR OLD."taskId" IS NOT NEW."taskId"
  OR OLD."firstErrorCategory" IS NOT NEW."firstErrorCategory"
  OR OLD."forkPointId" IS NOT NEW."forkPointId"
  OR OLD."reward" IS NOT NEW."reward"
  OR OLD."stepCount" IS NOT NEW."stepCount"
  OR OLD."durationMs" IS NOT NEW."durationMs"
  OR OLD."firstErrorStep" IS NOT NEW."firstErrorStep"
  OR (OLD."forkPointCount" > 0) IS NOT (NEW."forkPointCount" > 0)
  OR (OLD."parentId" IS NULL) IS NOT (NEW."parentId" IS NULL)
  OR (OLD."warningCount" > 0) IS NOT (NEW."warningCount" > 0)
BEGIN
  UPDATE "TrajectoryFacetCell" SET "n" = "n" - 1,
    "rewardMin" = CASE WHEN OLD."reward" <= "rewardMin" THEN (SELECT MIN(t."reward") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "rewardMin" END,
    "rewardMax" = CASE WHEN OLD."reward" >= "rewardMax" THEN (SELECT MAX(t."reward") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "rewardMax" END,
    "stepsMin" = CASE WHEN OLD."stepCount" <= "stepsMin" THEN (SELECT MIN(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "stepsMin" END,
    "stepsMax" = CASE WHEN OLD."stepCount" >= "stepsMax" THEN (SELECT MAX(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "stepsMax" END,
    "durationMin" = CASE WHEN OLD."durationMs" <= "durationMin" THEN (SELECT MIN(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "durationMin" END,
    "durationMax" = CASE WHEN OLD."durationMs" >= "durationMax" THEN (SELECT MAX(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "durationMax" END,
    "errorStepMin" = CASE WHEN OLD."firstErrorStep" <= "errorStepMin" THEN (SELECT MIN(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "errorStepMin" END,
    "errorStepMax" = CASE WHEN OLD."firstErrorStep" >= "errorStepMax" THEN (SELECT MAX(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = OLD."outcome" AND t."runId" = OLD."runId" AND t."taskId" = OLD."taskId"
        AND t."firstErrorCategory" IS OLD."firstErrorCategory" AND (t."forkPointCount" > 0) = (OLD."forkPointCount" > 0)
        AND (t."parentId" IS NOT NULL) = (OLD."parentId" IS NOT NULL) AND (t."warningCount" > 0) = (OLD."warningCount" > 0)
        AND (t."forkPointId" IS NOT NULL) = (OLD."forkPointId" IS NOT NULL) AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '')) ELSE "errorStepMax" END
  WHERE "outcome" = OLD."outcome" AND "runId" = OLD."runId" AND "taskId" = OLD."taskId" AND "errorCategory" = COALESCE(OLD."firstErrorCategory", '')
    AND "forks" = (OLD."forkPointCount" > 0) AND "attempt" = (OLD."parentId" IS NOT NULL) AND "warnings" = (OLD."warningCount" > 0)
    AND "forkPoint" = (OLD."forkPointId" IS NOT NULL) AND "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '');
  DELETE FROM "TrajectoryFacetCell" WHERE "outcome" = OLD."outcome" AND "runId" = OLD."runId" AND "taskId" = OLD."taskId" AND "errorCategory" = COALESCE(OLD."firstErrorCategory", '')
    AND "forks" = (OLD."forkPointCount" > 0) AND "attempt" = (OLD."parentId" IS NOT NULL) AND "warnings" = (OLD."warningCount" > 0)
    AND "forkPoint" = (OLD."forkPointId" IS NOT NULL) AND "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = OLD."forkPointId"), '') AND "n" <= 0;
  INSERT INTO "TrajectoryFacetCell" ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
  VALUES (NEW."outcome", NEW."runId", NEW."taskId", COALESCE(NEW."firstErrorCategory", ''), NEW."forkPointCount" > 0,
    NEW."parentId" IS NOT NULL, NEW."warningCount" > 0, NEW."forkPointId" IS NOT NULL, COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = NEW."forkPointId"), ''), 1,
    NEW."reward", NEW."reward", NEW."stepCount", NEW."stepCount", NEW."durationMs", NEW."durationMs", NEW."firstErrorStep", NEW."firstErrorStep")
  ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory") DO UPDATE SET "n" = "n" + 1,
    "rewardMin" = CASE WHEN "rewardMin" IS NULL OR excluded."rewardMin" < "rewardMin" THEN excluded."rewardMin" ELSE "rewardMin" END,
    "rewardMax" = CASE WHEN "rewardMax" IS NULL OR excluded."rewardMax" > "rewardMax" THEN excluded."rewardMax" ELSE "rewardMax" END,
    "stepsMin" = CASE WHEN "stepsMin" IS NULL OR excluded."stepsMin" < "stepsMin" THEN excluded."stepsMin" ELSE "stepsMin" END,
    "stepsMax" = CASE WHEN "stepsMax" IS NULL OR excluded."stepsMax" > "stepsMax" THEN excluded."stepsMax" ELSE "stepsMax" END,
    "durationMin" = CASE WHEN "durationMin" IS NULL OR excluded."durationMin" < "durationMin" THEN excluded."durationMin" ELSE "durationMin" END,
    "durationMax" = CASE WHEN "durationMax" IS NULL OR excluded."durationMax" > "durationMax" THEN excluded."durationMax" ELSE "durationMax" END,
    "errorStepMin" = CASE WHEN "errorStepMin" IS NULL OR excluded."errorStepMin" < "errorStepMin" THEN excluded."errorStepMin" ELSE "errorStepMin" END,
    "errorStepMax" = CASE WHEN "errorStepMax" IS NULL OR excluded."errorStepMax" > "errorStepMax" THEN excluded."errorStepMax" ELSE "errorStepMax" END;
END;

-- A cell names its attempts' fork-point category, so a fork point keeps its category, and its attempts leave their
-- cells while it still exists (the foreign key would set their forkPointId to NULL only after it is gone).
CREATE TRIGGER "ForkPoint_detach_attempts" BEFORE DELETE ON "ForkPoint" BEGIN
  UPDATE "Trajectory" SET "forkPointId" = NULL WHERE "forkPointId" = OLD."id";
END;
CREATE TRIGGER "ForkPoint_category_fixed" BEFORE UPDATE OF "errorCategory" ON "ForkPoint"
  WHEN OLD."errorCategory" IS NOT NEW."errorCategory"
BEGIN
  SELECT RAISE(ABORT, 'ForkPoint.errorCategory cannot change once set (TrajectoryFacetCell counts its attempts under it)');
END;

-- The cells of the trajectories already here.
INSERT INTO "TrajectoryFacetCell" ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
SELECT t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), t."forkPointCount" > 0, t."parentId" IS NOT NULL,
  t."warningCount" > 0, t."forkPointId" IS NOT NULL, COALESCE(fp."errorCategory", ''), COUNT(*), MIN(t."reward"), MAX(t."reward"), MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs"), MIN(t."firstErrorStep"), MAX(t."firstErrorStep")
FROM "Trajectory" t LEFT JOIN "ForkPoint" fp ON fp."id" = t."forkPointId"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
