-- Each indexed trajectory's facet key and range columns on its step_search_doc row, so a search's facets read the
-- matching doc rows alone: the words' GIN index finds the rows and the row holds what the facets group by. Before,
-- the facets looked every match up in Trajectory (one probe per match: 1.2-2 s for a word in 10^5 trajectories at
-- 10^6). The key is TrajectoryFacetCell's (the same derivation, '' for no error category), with the four columns the
-- range facets bound. Hand-written, like the table it extends (20261129170000_step_search); PostgreSQL only: SQLite
-- serves one machine's data, where the facets probe Trajectory fast enough.

ALTER TABLE "step_search_doc"
  ADD COLUMN "outcome" TEXT,
  ADD COLUMN "runId" TEXT,
  ADD COLUMN "taskId" TEXT,
  ADD COLUMN "errorCategory" TEXT,
  ADD COLUMN "forks" INTEGER,
  ADD COLUMN "attempt" INTEGER,
  ADD COLUMN "warnings" INTEGER,
  ADD COLUMN "forkPoint" INTEGER,
  ADD COLUMN "forkCategory" TEXT,
  ADD COLUMN "reward" DOUBLE PRECISION,
  ADD COLUMN "stepCount" INTEGER,
  ADD COLUMN "durationMs" INTEGER,
  ADD COLUMN "firstErrorStep" INTEGER;

-- Kept inline: a row past 2 kB is toasted down to the table's toast_tuple_target of 128 bytes
-- (20261205220000_step_search_words), which would move a run or task id out of line with the words, and each match
-- would read it back from the TOAST table.
ALTER TABLE "step_search_doc"
  ALTER COLUMN "outcome" SET STORAGE PLAIN,
  ALTER COLUMN "runId" SET STORAGE PLAIN,
  ALTER COLUMN "taskId" SET STORAGE PLAIN,
  ALTER COLUMN "errorCategory" SET STORAGE PLAIN,
  ALTER COLUMN "forkCategory" SET STORAGE PLAIN;

-- A row takes its trajectory's key as it is written, whoever writes it; the trajectory row is locked (FOR SHARE) so
-- that an update of it committing meanwhile waits, then finds this row and changes it (the trigger below).
CREATE FUNCTION "reterm_search_doc_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."outcome", t."runId", t."taskId", COALESCE(t."firstErrorCategory", ''), (t."forkPointCount" > 0)::int,
    (t."parentId" IS NOT NULL)::int, (t."warningCount" > 0)::int, (t."forkPointId" IS NOT NULL)::int,
    COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = t."forkPointId"), ''),
    t."reward", t."stepCount", t."durationMs", t."firstErrorStep"
  INTO NEW."outcome", NEW."runId", NEW."taskId", NEW."errorCategory", NEW."forks", NEW."attempt", NEW."warnings",
    NEW."forkPoint", NEW."forkCategory", NEW."reward", NEW."stepCount", NEW."durationMs", NEW."firstErrorStep"
  FROM "Trajectory" t WHERE t."id" = NEW."trajectory_id" FOR SHARE OF t;
  RETURN NEW;
END $$;
CREATE TRIGGER "step_search_doc_key" BEFORE INSERT ON "step_search_doc" FOR EACH ROW EXECUTE FUNCTION "reterm_search_doc_key"();

-- An update of indexed trajectories carries their new key to their rows (rows whose key is unchanged are not written).
CREATE FUNCTION "reterm_search_doc_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "step_search_doc" d SET "outcome" = k."outcome", "runId" = k."runId", "taskId" = k."taskId",
    "errorCategory" = k."errorCategory", "forks" = k."forks", "attempt" = k."attempt", "warnings" = k."warnings",
    "forkPoint" = k."forkPoint", "forkCategory" = k."forkCategory", "reward" = k."reward", "stepCount" = k."stepCount",
    "durationMs" = k."durationMs", "firstErrorStep" = k."firstErrorStep"
  FROM (SELECT n."id", n."outcome", n."runId", n."taskId", COALESCE(n."firstErrorCategory", '') AS "errorCategory",
      (n."forkPointCount" > 0)::int AS "forks", (n."parentId" IS NOT NULL)::int AS "attempt", (n."warningCount" > 0)::int AS "warnings",
      (n."forkPointId" IS NOT NULL)::int AS "forkPoint",
      COALESCE((SELECT f."errorCategory" FROM "ForkPoint" f WHERE f."id" = n."forkPointId"), '') AS "forkCategory",
      n."reward", n."stepCount", n."durationMs", n."firstErrorStep"
    FROM new_rows n ORDER BY 1) k
  WHERE d."trajectory_id" = k."id"
    AND (d."outcome", d."runId", d."taskId", d."errorCategory", d."forks", d."attempt", d."warnings", d."forkPoint",
      d."forkCategory", d."reward", d."stepCount", d."durationMs", d."firstErrorStep")
      IS DISTINCT FROM (k."outcome", k."runId", k."taskId", k."errorCategory", k."forks", k."attempt", k."warnings",
      k."forkPoint", k."forkCategory", k."reward", k."stepCount", k."durationMs", k."firstErrorStep");
  RETURN NULL;
END $$;
CREATE TRIGGER "Trajectory_search_doc_update" AFTER UPDATE ON "Trajectory" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_search_doc_key_changed"();

-- The rows already indexed.
UPDATE "step_search_doc" d SET "outcome" = t."outcome", "runId" = t."runId", "taskId" = t."taskId",
  "errorCategory" = COALESCE(t."firstErrorCategory", ''), "forks" = (t."forkPointCount" > 0)::int,
  "attempt" = (t."parentId" IS NOT NULL)::int, "warnings" = (t."warningCount" > 0)::int,
  "forkPoint" = (t."forkPointId" IS NOT NULL)::int, "forkCategory" = COALESCE(fp."errorCategory", ''),
  "reward" = t."reward", "stepCount" = t."stepCount", "durationMs" = t."durationMs", "firstErrorStep" = t."firstErrorStep"
FROM "Trajectory" t LEFT JOIN "ForkPoint" fp ON fp."id" = t."forkPointId"
WHERE t."id" = d."trajectory_id";

ALTER TABLE "step_search_doc"
  ALTER COLUMN "outcome" SET NOT NULL,
  ALTER COLUMN "runId" SET NOT NULL,
  ALTER COLUMN "taskId" SET NOT NULL,
  ALTER COLUMN "errorCategory" SET NOT NULL,
  ALTER COLUMN "forks" SET NOT NULL,
  ALTER COLUMN "attempt" SET NOT NULL,
  ALTER COLUMN "warnings" SET NOT NULL,
  ALTER COLUMN "forkPoint" SET NOT NULL,
  ALTER COLUMN "forkCategory" SET NOT NULL,
  ALTER COLUMN "stepCount" SET NOT NULL;

