-- CreateTable
CREATE TABLE "MarkedTrajectory" (
    "trajectoryId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "errorCategory" TEXT NOT NULL,
    "forks" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "warnings" INTEGER NOT NULL,
    "marks" INTEGER NOT NULL,

    CONSTRAINT "MarkedTrajectory_pkey" PRIMARY KEY ("trajectoryId")
);

-- AddForeignKey
ALTER TABLE "MarkedTrajectory" ADD CONSTRAINT "MarkedTrajectory_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written below: the triggers that keep MarkedTrajectory exact whatever writes annotations, dataset items or
-- trajectories (Prisma, raw SQL, COPY, foreign-key cascades). Statement-level with transition tables, like the facet
-- cells' triggers, so a dataset version of 10^5 items costs one grouped upsert. A row counts the annotations and
-- dataset items referring to its trajectory; it is deleted when that reaches 0 (counting rather than re-checking for
-- other rows: two transactions adding and removing marks of one trajectory then serialise on its row). Rows are
-- written in key order, so concurrent writers lock them in one order. The key is derived as TrajectoryFacetCell's is.

CREATE FUNCTION "reterm_marks_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO "MarkedTrajectory" AS m ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
    SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int,
      (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, n."c"
    FROM (SELECT "trajectoryId", COUNT(*)::int AS "c" FROM new_rows GROUP BY 1) n JOIN "Trajectory" t ON t."id" = n."trajectoryId"
    ORDER BY 1
    ON CONFLICT ("trajectoryId") DO UPDATE SET "marks" = m."marks" + EXCLUDED."marks";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Annotation_marks_insert" AFTER INSERT ON "Annotation" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();
CREATE TRIGGER "Annotation_marks_delete" AFTER DELETE ON "Annotation" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();
-- Transition tables cannot go with a column list (UPDATE OF): the function returns early unless a trajectoryId changed.
CREATE TRIGGER "Annotation_marks_update" AFTER UPDATE ON "Annotation" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();
CREATE TRIGGER "DatasetItem_marks_insert" AFTER INSERT ON "DatasetItem" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();
CREATE TRIGGER "DatasetItem_marks_delete" AFTER DELETE ON "DatasetItem" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();
CREATE TRIGGER "DatasetItem_marks_update" AFTER UPDATE ON "DatasetItem" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marks_changed"();

-- A marked trajectory whose cell key changes carries the new key (an update of other columns changes no row).
CREATE FUNCTION "reterm_marked_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "MarkedTrajectory" m SET "outcome" = k."outcome", "runId" = k."runId", "taskId" = k."taskId", "errorCategory" = k."errorCategory",
    "forks" = k."forks", "attempt" = k."attempt", "warnings" = k."warnings"
  FROM (SELECT n."id", n."outcome", n."runId", n."taskId", COALESCE(n."firstErrorCategory", '') AS "errorCategory",
      (n."forkPointCount" > 0)::int AS "forks", (n."parentId" IS NOT NULL)::int AS "attempt", (n."warningCount" > 0)::int AS "warnings"
    FROM new_rows n ORDER BY 1) k
  WHERE m."trajectoryId" = k."id"
    AND (m."outcome", m."runId", m."taskId", m."errorCategory", m."forks", m."attempt", m."warnings")
      IS DISTINCT FROM (k."outcome", k."runId", k."taskId", k."errorCategory", k."forks", k."attempt", k."warnings");
  RETURN NULL;
END $$;

CREATE TRIGGER "Trajectory_marked_update" AFTER UPDATE ON "Trajectory" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_marked_key_changed"();

-- The trajectories already marked.
INSERT INTO "MarkedTrajectory" ("trajectoryId", "outcome", "runId", "taskId", "errorCategory", "forks", "attempt", "warnings", "marks")
SELECT t."id", t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int,
  (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, r."c"
FROM (SELECT "trajectoryId", COUNT(*)::int AS "c" FROM (SELECT "trajectoryId" FROM "Annotation" UNION ALL SELECT "trajectoryId" FROM "DatasetItem") x
  GROUP BY 1) r JOIN "Trajectory" t ON t."id" = r."trajectoryId";
