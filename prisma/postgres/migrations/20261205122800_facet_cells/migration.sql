-- CreateTable
CREATE TABLE "TrajectoryFacetCell" (
    "outcome" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "errorCategory" TEXT NOT NULL,
    "forks" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "warnings" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "rewardMin" DOUBLE PRECISION,
    "rewardMax" DOUBLE PRECISION,
    "stepsMin" INTEGER,
    "stepsMax" INTEGER,
    "durationMin" INTEGER,
    "durationMax" INTEGER,
    "errorStepMin" INTEGER,
    "errorStepMax" INTEGER,

    CONSTRAINT "TrajectoryFacetCell_pkey" PRIMARY KEY ("outcome","runId","taskId","errorCategory","forks","attempt","warnings")
);

-- Hand-written below: the triggers that keep TrajectoryFacetCell exact whatever writes Trajectory (the bulk
-- writers, Prisma updates, raw SQL, ON DELETE SET NULL). Statement-level with transition tables, so a batch of
-- inserted trajectories costs one grouped upsert, not one per row: an UPDATE that changes none of the cell columns
-- (annotation counts, say) changes no cell. Cells are written in key order, so concurrent writers lock them in one
-- order. A cell that lost rows has its bounds recomputed from Trajectory (an AFTER trigger sees the statement
-- result, a seek on Trajectory_browse_idx and its leading columns): a cell left empty is deleted.

-- One function for the three triggers. Each branch names only the transition tables its event has (a statement that
-- mentions old_rows does not plan in an INSERT trigger). An UPDATE moves only the rows whose cell columns changed.
CREATE FUNCTION "reterm_facet_cells_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "TrajectoryFacetCell" AS c ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "n",
      "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
    SELECT s."outcome", s."runId", s."taskId", COALESCE(s."firstErrorCategory", ''), (s."forkPointCount" > 0)::int,
      (s."parentId" IS NOT NULL)::int, (s."warningCount" > 0)::int, COUNT(*), MIN(s."reward"), MAX(s."reward"),
      MIN(s."stepCount"), MAX(s."stepCount"), MIN(s."durationMs"), MAX(s."durationMs"), MIN(s."firstErrorStep"), MAX(s."firstErrorStep")
    FROM new_rows s
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings") DO UPDATE SET
      "n" = c."n" + EXCLUDED."n",
      "rewardMin" = LEAST(c."rewardMin", EXCLUDED."rewardMin"), "rewardMax" = GREATEST(c."rewardMax", EXCLUDED."rewardMax"),
      "stepsMin" = LEAST(c."stepsMin", EXCLUDED."stepsMin"), "stepsMax" = GREATEST(c."stepsMax", EXCLUDED."stepsMax"),
      "durationMin" = LEAST(c."durationMin", EXCLUDED."durationMin"), "durationMax" = GREATEST(c."durationMax", EXCLUDED."durationMax"),
      "errorStepMin" = LEAST(c."errorStepMin", EXCLUDED."errorStepMin"), "errorStepMax" = GREATEST(c."errorStepMax", EXCLUDED."errorStepMax");
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "TrajectoryFacetCell" c SET "n" = c."n" - g."n",
      ("rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax") = (
        SELECT MIN(t."reward"), MAX(t."reward"), MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs"),
          MIN(t."firstErrorStep"), MAX(t."firstErrorStep")
        FROM "Trajectory" t
        WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId"
          AND COALESCE(t."firstErrorCategory", '') = c."errorCategory" AND (t."forkPointCount" > 0)::int = c."forks"
          AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings")
    FROM (
      SELECT o."outcome", o."runId", o."taskId", COALESCE(o."firstErrorCategory", '') AS "errorCategory",
        (o."forkPointCount" > 0)::int AS "forks", (o."parentId" IS NOT NULL)::int AS "attempt", (o."warningCount" > 0)::int AS "warnings",
        COUNT(*) AS "n"
      FROM old_rows o
      GROUP BY 1, 2, 3, 4, 5, 6, 7
      ORDER BY 1, 2, 3, 4, 5, 6, 7
    ) g
    WHERE c."outcome" = g."outcome" AND c."runId" = g."runId" AND c."taskId" = g."taskId" AND c."errorCategory" = g."errorCategory"
      AND c."forks" = g."forks" AND c."attempt" = g."attempt" AND c."warnings" = g."warnings";
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
      DELETE FROM "TrajectoryFacetCell" WHERE "n" <= 0;
    END IF;
  ELSE
    UPDATE "TrajectoryFacetCell" c SET "n" = c."n" - g."n",
      ("rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax") = (
        SELECT MIN(t."reward"), MAX(t."reward"), MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs"),
          MIN(t."firstErrorStep"), MAX(t."firstErrorStep")
        FROM "Trajectory" t
        WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId"
          AND COALESCE(t."firstErrorCategory", '') = c."errorCategory" AND (t."forkPointCount" > 0)::int = c."forks"
          AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings")
    FROM (
      SELECT o."outcome", o."runId", o."taskId", COALESCE(o."firstErrorCategory", '') AS "errorCategory",
        (o."forkPointCount" > 0)::int AS "forks", (o."parentId" IS NOT NULL)::int AS "attempt", (o."warningCount" > 0)::int AS "warnings",
        COUNT(*) AS "n"
      FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM new_rows w WHERE w."id" = o."id" AND (
          o."outcome", o."runId", o."taskId", o."firstErrorCategory", o."forkPointCount" > 0, o."parentId" IS NOT NULL,
          o."warningCount" > 0, o."reward", o."stepCount", o."durationMs", o."firstErrorStep"
        ) IS DISTINCT FROM (
          w."outcome", w."runId", w."taskId", w."firstErrorCategory", w."forkPointCount" > 0, w."parentId" IS NOT NULL,
          w."warningCount" > 0, w."reward", w."stepCount", w."durationMs", w."firstErrorStep"
        ))
      GROUP BY 1, 2, 3, 4, 5, 6, 7
      ORDER BY 1, 2, 3, 4, 5, 6, 7
    ) g
    WHERE c."outcome" = g."outcome" AND c."runId" = g."runId" AND c."taskId" = g."taskId" AND c."errorCategory" = g."errorCategory"
      AND c."forks" = g."forks" AND c."attempt" = g."attempt" AND c."warnings" = g."warnings";
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
      DELETE FROM "TrajectoryFacetCell" WHERE "n" <= 0;
    END IF;
    INSERT INTO "TrajectoryFacetCell" AS c ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "n",
      "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
    SELECT s."outcome", s."runId", s."taskId", COALESCE(s."firstErrorCategory", ''), (s."forkPointCount" > 0)::int,
      (s."parentId" IS NOT NULL)::int, (s."warningCount" > 0)::int, COUNT(*), MIN(s."reward"), MAX(s."reward"),
      MIN(s."stepCount"), MAX(s."stepCount"), MIN(s."durationMs"), MAX(s."durationMs"), MIN(s."firstErrorStep"), MAX(s."firstErrorStep")
    FROM new_rows s
    WHERE EXISTS (SELECT 1 FROM old_rows o WHERE o."id" = s."id" AND (
          o."outcome", o."runId", o."taskId", o."firstErrorCategory", o."forkPointCount" > 0, o."parentId" IS NOT NULL,
          o."warningCount" > 0, o."reward", o."stepCount", o."durationMs", o."firstErrorStep"
        ) IS DISTINCT FROM (
          s."outcome", s."runId", s."taskId", s."firstErrorCategory", s."forkPointCount" > 0, s."parentId" IS NOT NULL,
          s."warningCount" > 0, s."reward", s."stepCount", s."durationMs", s."firstErrorStep"
        ))
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings") DO UPDATE SET
      "n" = c."n" + EXCLUDED."n",
      "rewardMin" = LEAST(c."rewardMin", EXCLUDED."rewardMin"), "rewardMax" = GREATEST(c."rewardMax", EXCLUDED."rewardMax"),
      "stepsMin" = LEAST(c."stepsMin", EXCLUDED."stepsMin"), "stepsMax" = GREATEST(c."stepsMax", EXCLUDED."stepsMax"),
      "durationMin" = LEAST(c."durationMin", EXCLUDED."durationMin"), "durationMax" = GREATEST(c."durationMax", EXCLUDED."durationMax"),
      "errorStepMin" = LEAST(c."errorStepMin", EXCLUDED."errorStepMin"), "errorStepMax" = GREATEST(c."errorStepMax", EXCLUDED."errorStepMax");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Trajectory_facet_insert" AFTER INSERT ON "Trajectory" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();
CREATE TRIGGER "Trajectory_facet_update" AFTER UPDATE ON "Trajectory" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();
CREATE TRIGGER "Trajectory_facet_delete" AFTER DELETE ON "Trajectory" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();

-- The cells of the trajectories already here.
INSERT INTO "TrajectoryFacetCell" ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "n",
  "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
SELECT t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int,
  (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, COUNT(*), MIN(t."reward"), MAX(t."reward"),
  MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs"), MIN(t."firstErrorStep"), MAX(t."firstErrorStep")
FROM "Trajectory" t
GROUP BY 1, 2, 3, 4, 5, 6, 7;
