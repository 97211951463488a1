-- AlterTable
ALTER TABLE "TrajectoryFacetCell" ADD COLUMN "boundsStale" INTEGER NOT NULL DEFAULT 0;

-- Hand-written below: a row leaving a cell no longer rescans the cell for new bounds (8 scans of the cell per row,
-- which made a large import quadratic: each batch moves its parents out of their no-fork cells). A cell whose bound
-- the row may have held is marked boundsStale instead. Readers compute a stale cell's bounds from its rows and
-- refreshFacetCellBounds (lib/db/repositories/browse/facet-cells.ts) recomputes them once, after an import.

DROP TRIGGER "Trajectory_facet_delete";
DROP TRIGGER "Trajectory_facet_update";

CREATE TRIGGER "Trajectory_facet_delete" AFTER DELETE ON "Trajectory" BEGIN
  UPDATE "TrajectoryFacetCell" SET "n" = "n" - 1,
    "boundsStale" = CASE WHEN OLD."reward" <= "rewardMin" OR OLD."reward" >= "rewardMax" OR OLD."stepCount" <= "stepsMin" OR OLD."stepCount" >= "stepsMax" OR OLD."durationMs" <= "durationMin" OR OLD."durationMs" >= "durationMax" OR OLD."firstErrorStep" <= "errorStepMin" OR OLD."firstErrorStep" >= "errorStepMax" THEN 1 ELSE "boundsStale" END
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
    "boundsStale" = CASE WHEN OLD."reward" <= "rewardMin" OR OLD."reward" >= "rewardMax" OR OLD."stepCount" <= "stepsMin" OR OLD."stepCount" >= "stepsMax" OR OLD."durationMs" <= "durationMin" OR OLD."durationMs" >= "durationMax" OR OLD."firstErrorStep" <= "errorStepMin" OR OLD."firstErrorStep" >= "errorStepMax" THEN 1 ELSE "boundsStale" END
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
