-- AlterTable
ALTER TABLE "MarkedTrajectory" ADD COLUMN     "forkCategory" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "forkPointId" TEXT;

-- Hand-written below: the marks' triggers (20261206050746_marked_trajectories) carry the trajectory's fork point and
-- its detected category too (fixed once the fork point exists), so the dataset, label and "annotated" facets under a
-- forkError filter test them on this small table. Trajectory's forkPointId changes by update, and by the foreign
-- key's ON DELETE SET NULL when its fork point goes: both reach "Trajectory_marked_update".

CREATE OR REPLACE FUNCTION "reterm_marks_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An update moves its rows' marks out and back in, so only one that changes a trajectoryId needs to (a label edit
  -- does not). Nested: a statement naming new_rows does not plan in a DELETE trigger.
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE n."trajectoryId" <> o."trajectoryId") THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "MarkedTrajectory" m SET "marks" = m."marks" - o."c"
    FROM (SELECT "trajectoryId", COUNT(*)::int AS "c" FROM old_rows GROUP BY 1 ORDER BY 1) o
    WHERE m."trajectoryId" = o."trajectoryId";
    DELETE FROM "MarkedTrajectory" m USING (SELECT DISTINCT "trajectoryId" FROM old_rows) o
    WHERE m."trajectoryId" = o."trajectoryId" AND m."marks" <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "MarkedTrajectory" AS m ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "forkPointId", "forkCategory", "marks")
    SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int,
      (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, t."forkPointId", COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''), n."c"
    FROM (SELECT "trajectoryId", COUNT(*)::int AS "c" FROM new_rows GROUP BY 1) n JOIN "Trajectory" t ON t."id" = n."trajectoryId"
    ORDER BY 1
    ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = m."marks" + EXCLUDED."marks";
  END IF;
  RETURN NULL;
END $$;

-- A marked trajectory whose cell key or fork point changes carries the new one (an update of other columns changes no row).
CREATE OR REPLACE FUNCTION "reterm_marked_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "MarkedTrajectory" m SET "outcome" = k."outcome", "runId" = k."runId", "taskId" = k."taskId", "errorCategory" = k."errorCategory",
    "forks" = k."forks", "attempt" = k."attempt", "warnings" = k."warnings", "forkPointId" = k."forkPointId",
    -- Looked up for the changed rows only (the key's subquery runs for every updated trajectory).
    "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = k."forkPointId"), '')
  FROM (SELECT n."id", n."outcome", n."runId", n."taskId", COALESCE(n."firstErrorCategory", '') AS "errorCategory",
      (n."forkPointCount" > 0)::int AS "forks", (n."parentId" IS NOT NULL)::int AS "attempt", (n."warningCount" > 0)::int AS "warnings",
      n."forkPointId"
    FROM new_rows n ORDER BY 1) k
  WHERE m."trajectoryId" = k."id"
    AND (m."outcome", m."runId", m."taskId", m."errorCategory", m."forks", m."attempt", m."warnings", m."forkPointId")
      IS DISTINCT FROM (k."outcome", k."runId", k."taskId", k."errorCategory", k."forks", k."attempt", k."warnings", k."forkPointId");
  RETURN NULL;
END $$;

-- The rows already there.
UPDATE "MarkedTrajectory" m SET "forkPointId" = t."forkPointId", "forkCategory" = COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), '')
FROM "Trajectory" t WHERE t."id" = m."trajectoryId" AND t."forkPointId" IS NOT NULL;
