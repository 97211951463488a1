-- AlterTable
ALTER TABLE "TrajectoryFacetCell" ADD COLUMN     "boundsStale" INTEGER NOT NULL DEFAULT 0;

-- Hand-written below: rows leaving a cell no longer rescan it for new bounds (8 scans of the cell per statement, which
-- made a large import quadratic: each batch moves its parents out of their no-fork cells). A cell whose bound the
-- leaving rows may have held is marked boundsStale instead. Readers compute a stale cell's bounds from its rows and
-- refreshFacetCellBounds (lib/db/repositories/browse/facet-cells.ts) recomputes them once, after an import.

CREATE OR REPLACE FUNCTION "reterm_facet_cells_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "TrajectoryFacetCell" AS c ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
    SELECT s."outcome", s."runId", s."taskId", COALESCE(s."firstErrorCategory", ''), (s."forkPointCount" > 0)::int, (s."parentId" IS NOT NULL)::int, (s."warningCount" > 0)::int, (s."forkPointId" IS NOT NULL)::int, COALESCE(fp."errorCategory", ''),
      COUNT(*), MIN(s."reward"), MAX(s."reward"), MIN(s."stepCount"), MAX(s."stepCount"), MIN(s."durationMs"), MAX(s."durationMs"), MIN(s."firstErrorStep"), MAX(s."firstErrorStep")
    FROM new_rows s LEFT JOIN "ForkPoint" fp ON fp."id" = s."forkPointId"
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory") DO UPDATE SET
      "n" = c."n" + EXCLUDED."n",
      "rewardMin" = LEAST(c."rewardMin", EXCLUDED."rewardMin"),
      "rewardMax" = GREATEST(c."rewardMax", EXCLUDED."rewardMax"),
      "stepsMin" = LEAST(c."stepsMin", EXCLUDED."stepsMin"),
      "stepsMax" = GREATEST(c."stepsMax", EXCLUDED."stepsMax"),
      "durationMin" = LEAST(c."durationMin", EXCLUDED."durationMin"),
      "durationMax" = GREATEST(c."durationMax", EXCLUDED."durationMax"),
      "errorStepMin" = LEAST(c."errorStepMin", EXCLUDED."errorStepMin"),
      "errorStepMax" = GREATEST(c."errorStepMax", EXCLUDED."errorStepMax");
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "TrajectoryFacetCell" c SET "n" = c."n" - g."n",
      "boundsStale" = CASE WHEN g."rewardMin" <= c."rewardMin" OR g."rewardMax" >= c."rewardMax" OR g."stepsMin" <= c."stepsMin" OR g."stepsMax" >= c."stepsMax" OR g."durationMin" <= c."durationMin" OR g."durationMax" >= c."durationMax" OR g."errorStepMin" <= c."errorStepMin" OR g."errorStepMax" >= c."errorStepMax" THEN 1 ELSE c."boundsStale" END
    FROM (
      SELECT o."outcome" AS "outcome", o."runId" AS "runId", o."taskId" AS "taskId", COALESCE(o."firstErrorCategory", '') AS "errorCategory", (o."forkPointCount" > 0)::int AS "forks", (o."parentId" IS NOT NULL)::int AS "attempt", (o."warningCount" > 0)::int AS "warnings", (o."forkPointId" IS NOT NULL)::int AS "forkPoint", COALESCE(fp."errorCategory", '') AS "forkCategory",
        COUNT(*) AS "n", MIN(o."reward") AS "rewardMin", MAX(o."reward") AS "rewardMax", MIN(o."stepCount") AS "stepsMin", MAX(o."stepCount") AS "stepsMax", MIN(o."durationMs") AS "durationMin", MAX(o."durationMs") AS "durationMax", MIN(o."firstErrorStep") AS "errorStepMin", MAX(o."firstErrorStep") AS "errorStepMax"
      FROM old_rows o LEFT JOIN (SELECT "id", "errorCategory" FROM "ForkPoint" UNION ALL SELECT "id", "errorCategory" FROM "reterm_fork_point_gone") fp
        ON fp."id" = o."forkPointId"
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ) g
    WHERE c."outcome" = g."outcome" AND c."runId" = g."runId" AND c."taskId" = g."taskId" AND c."errorCategory" = g."errorCategory" AND c."forks" = g."forks" AND c."attempt" = g."attempt" AND c."warnings" = g."warnings" AND c."forkPoint" = g."forkPoint" AND c."forkCategory" = g."forkCategory";
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
      DELETE FROM "TrajectoryFacetCell" WHERE "n" <= 0;
    END IF;
    DELETE FROM "reterm_fork_point_gone";
  ELSE
    UPDATE "TrajectoryFacetCell" c SET "n" = c."n" - g."n",
      "boundsStale" = CASE WHEN g."rewardMin" <= c."rewardMin" OR g."rewardMax" >= c."rewardMax" OR g."stepsMin" <= c."stepsMin" OR g."stepsMax" >= c."stepsMax" OR g."durationMin" <= c."durationMin" OR g."durationMax" >= c."durationMax" OR g."errorStepMin" <= c."errorStepMin" OR g."errorStepMax" >= c."errorStepMax" THEN 1 ELSE c."boundsStale" END
    FROM (
      SELECT o."outcome" AS "outcome", o."runId" AS "runId", o."taskId" AS "taskId", COALESCE(o."firstErrorCategory", '') AS "errorCategory", (o."forkPointCount" > 0)::int AS "forks", (o."parentId" IS NOT NULL)::int AS "attempt", (o."warningCount" > 0)::int AS "warnings", (o."forkPointId" IS NOT NULL)::int AS "forkPoint", COALESCE(fp."errorCategory", '') AS "forkCategory",
        COUNT(*) AS "n", MIN(o."reward") AS "rewardMin", MAX(o."reward") AS "rewardMax", MIN(o."stepCount") AS "stepsMin", MAX(o."stepCount") AS "stepsMax", MIN(o."durationMs") AS "durationMin", MAX(o."durationMs") AS "durationMax", MIN(o."firstErrorStep") AS "errorStepMin", MAX(o."firstErrorStep") AS "errorStepMax"
      FROM old_rows o LEFT JOIN (SELECT "id", "errorCategory" FROM "ForkPoint" UNION ALL SELECT "id", "errorCategory" FROM "reterm_fork_point_gone") fp
        ON fp."id" = o."forkPointId"
      WHERE EXISTS (SELECT 1 FROM new_rows w WHERE w."id" = o."id"
        AND (o."outcome", o."runId", o."taskId", o."firstErrorCategory", o."forkPointCount" > 0, o."parentId" IS NOT NULL, o."warningCount" > 0, o."forkPointId", o."reward", o."stepCount", o."durationMs", o."firstErrorStep")
        IS DISTINCT FROM (w."outcome", w."runId", w."taskId", w."firstErrorCategory", w."forkPointCount" > 0, w."parentId" IS NOT NULL, w."warningCount" > 0, w."forkPointId", w."reward", w."stepCount", w."durationMs", w."firstErrorStep"))
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ) g
    WHERE c."outcome" = g."outcome" AND c."runId" = g."runId" AND c."taskId" = g."taskId" AND c."errorCategory" = g."errorCategory" AND c."forks" = g."forks" AND c."attempt" = g."attempt" AND c."warnings" = g."warnings" AND c."forkPoint" = g."forkPoint" AND c."forkCategory" = g."forkCategory";
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
      DELETE FROM "TrajectoryFacetCell" WHERE "n" <= 0;
    END IF;
    INSERT INTO "TrajectoryFacetCell" AS c ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
    SELECT s."outcome", s."runId", s."taskId", COALESCE(s."firstErrorCategory", ''), (s."forkPointCount" > 0)::int, (s."parentId" IS NOT NULL)::int, (s."warningCount" > 0)::int, (s."forkPointId" IS NOT NULL)::int, COALESCE(fp."errorCategory", ''),
      COUNT(*), MIN(s."reward"), MAX(s."reward"), MIN(s."stepCount"), MAX(s."stepCount"), MIN(s."durationMs"), MAX(s."durationMs"), MIN(s."firstErrorStep"), MAX(s."firstErrorStep")
    FROM new_rows s LEFT JOIN "ForkPoint" fp ON fp."id" = s."forkPointId"
      WHERE EXISTS (SELECT 1 FROM old_rows w WHERE w."id" = s."id"
        AND (s."outcome", s."runId", s."taskId", s."firstErrorCategory", s."forkPointCount" > 0, s."parentId" IS NOT NULL, s."warningCount" > 0, s."forkPointId", s."reward", s."stepCount", s."durationMs", s."firstErrorStep")
        IS DISTINCT FROM (w."outcome", w."runId", w."taskId", w."firstErrorCategory", w."forkPointCount" > 0, w."parentId" IS NOT NULL, w."warningCount" > 0, w."forkPointId", w."reward", w."stepCount", w."durationMs", w."firstErrorStep"))
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory") DO UPDATE SET
      "n" = c."n" + EXCLUDED."n",
      "rewardMin" = LEAST(c."rewardMin", EXCLUDED."rewardMin"),
      "rewardMax" = GREATEST(c."rewardMax", EXCLUDED."rewardMax"),
      "stepsMin" = LEAST(c."stepsMin", EXCLUDED."stepsMin"),
      "stepsMax" = GREATEST(c."stepsMax", EXCLUDED."stepsMax"),
      "durationMin" = LEAST(c."durationMin", EXCLUDED."durationMin"),
      "durationMax" = GREATEST(c."durationMax", EXCLUDED."durationMax"),
      "errorStepMin" = LEAST(c."errorStepMin", EXCLUDED."errorStepMin"),
      "errorStepMax" = GREATEST(c."errorStepMax", EXCLUDED."errorStepMax");
  END IF;
  RETURN NULL;
END $$;
