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
    "rewardMin" DOUBLE PRECISION,
    "rewardMax" DOUBLE PRECISION,
    "stepsMin" INTEGER,
    "stepsMax" INTEGER,
    "durationMin" INTEGER,
    "durationMax" INTEGER,
    "errorStepMin" INTEGER,
    "errorStepMax" INTEGER,

    CONSTRAINT "TrajectoryFacetCell_pkey" PRIMARY KEY ("outcome","runId","taskId","errorCategory","forks","attempt","warnings","forkPoint","forkCategory")
);

-- Hand-written below: the triggers that keep TrajectoryFacetCell exact whatever writes Trajectory (the bulk writers,
-- Prisma updates, raw SQL, foreign-key actions). Statement-level with transition tables, so a batch of inserted
-- trajectories costs one grouped upsert, not one per row, and an UPDATE that changes none of the cell columns (annotation
-- counts, say) changes no cell. Cells are written in key order, so concurrent writers lock them in one order. When rows
-- leave a cell, each bound they may have held is recomputed from Trajectory (an AFTER trigger sees the result of the
-- statement), and a cell left empty is deleted. One function for the three events: each branch names only the
-- transition tables its event has (a statement mentioning old_rows does not plan in an INSERT trigger).

CREATE FUNCTION "reterm_facet_cells_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      "rewardMin" = CASE WHEN g."rewardMin" <= c."rewardMin" THEN (SELECT MIN(t."reward") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."rewardMin" END,
      "rewardMax" = CASE WHEN g."rewardMax" >= c."rewardMax" THEN (SELECT MAX(t."reward") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."rewardMax" END,
      "stepsMin" = CASE WHEN g."stepsMin" <= c."stepsMin" THEN (SELECT MIN(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."stepsMin" END,
      "stepsMax" = CASE WHEN g."stepsMax" >= c."stepsMax" THEN (SELECT MAX(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."stepsMax" END,
      "durationMin" = CASE WHEN g."durationMin" <= c."durationMin" THEN (SELECT MIN(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."durationMin" END,
      "durationMax" = CASE WHEN g."durationMax" >= c."durationMax" THEN (SELECT MAX(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."durationMax" END,
      "errorStepMin" = CASE WHEN g."errorStepMin" <= c."errorStepMin" THEN (SELECT MIN(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."errorStepMin" END,
      "errorStepMax" = CASE WHEN g."errorStepMax" >= c."errorStepMax" THEN (SELECT MAX(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."errorStepMax" END
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
      "rewardMin" = CASE WHEN g."rewardMin" <= c."rewardMin" THEN (SELECT MIN(t."reward") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."rewardMin" END,
      "rewardMax" = CASE WHEN g."rewardMax" >= c."rewardMax" THEN (SELECT MAX(t."reward") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."rewardMax" END,
      "stepsMin" = CASE WHEN g."stepsMin" <= c."stepsMin" THEN (SELECT MIN(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."stepsMin" END,
      "stepsMax" = CASE WHEN g."stepsMax" >= c."stepsMax" THEN (SELECT MAX(t."stepCount") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."stepsMax" END,
      "durationMin" = CASE WHEN g."durationMin" <= c."durationMin" THEN (SELECT MIN(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."durationMin" END,
      "durationMax" = CASE WHEN g."durationMax" >= c."durationMax" THEN (SELECT MAX(t."durationMs") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."durationMax" END,
      "errorStepMin" = CASE WHEN g."errorStepMin" <= c."errorStepMin" THEN (SELECT MIN(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."errorStepMin" END,
      "errorStepMax" = CASE WHEN g."errorStepMax" >= c."errorStepMax" THEN (SELECT MAX(t."firstErrorStep") FROM "Trajectory" t WHERE t."outcome" = c."outcome" AND t."runId" = c."runId" AND t."taskId" = c."taskId" AND COALESCE(t."firstErrorCategory", '') = c."errorCategory"
          AND (t."forkPointCount" > 0)::int = c."forks" AND (t."parentId" IS NOT NULL)::int = c."attempt" AND (t."warningCount" > 0)::int = c."warnings"
          AND (t."forkPointId" IS NOT NULL)::int = c."forkPoint"
          AND COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '') = c."forkCategory") ELSE c."errorStepMax" END
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

CREATE TRIGGER "Trajectory_facet_insert" AFTER INSERT ON "Trajectory" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();
CREATE TRIGGER "Trajectory_facet_update" AFTER UPDATE ON "Trajectory" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();
CREATE TRIGGER "Trajectory_facet_delete" AFTER DELETE ON "Trajectory" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_facet_cells_changed"();

-- A cell names its attempts' fork-point category, so a fork point keeps its category, and its attempts leave their
-- cells while it still exists (the foreign key would set their forkPointId to NULL only after it is gone).
-- Deleting trajectories deletes their fork points (cascade) before the statement trigger above runs, so a deleted
-- fork point's category is kept here for it: the deleted attempts are counted under it. Emptied by that trigger.
CREATE TABLE "reterm_fork_point_gone" ("id" TEXT PRIMARY KEY, "errorCategory" TEXT);

CREATE FUNCTION "reterm_fork_point_cells"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "reterm_fork_point_gone" VALUES (OLD."id", OLD."errorCategory") ON CONFLICT ("id") DO NOTHING;
    UPDATE "Trajectory" SET "forkPointId" = NULL WHERE "forkPointId" = OLD."id";
    RETURN OLD;
  END IF;
  IF NEW."errorCategory" IS DISTINCT FROM OLD."errorCategory" THEN
    RAISE EXCEPTION 'ForkPoint.errorCategory cannot change once set (TrajectoryFacetCell counts its attempts under it)';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "ForkPoint_detach_attempts" BEFORE DELETE ON "ForkPoint" FOR EACH ROW EXECUTE FUNCTION "reterm_fork_point_cells"();
CREATE TRIGGER "ForkPoint_category_fixed" BEFORE UPDATE OF "errorCategory" ON "ForkPoint" FOR EACH ROW EXECUTE FUNCTION "reterm_fork_point_cells"();

-- The cells of the trajectories already here.
INSERT INTO "TrajectoryFacetCell" ("outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPoint", "forkCategory", "n", "rewardMin", "rewardMax", "stepsMin", "stepsMax", "durationMin", "durationMax", "errorStepMin", "errorStepMax")
SELECT t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int, (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, (t."forkPointId" IS NOT NULL)::int, COALESCE(fp."errorCategory", ''),
  COUNT(*), MIN(t."reward"), MAX(t."reward"), MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs"), MIN(t."firstErrorStep"), MAX(t."firstErrorStep")
FROM "Trajectory" t LEFT JOIN "ForkPoint" fp ON fp."id" = t."forkPointId"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
