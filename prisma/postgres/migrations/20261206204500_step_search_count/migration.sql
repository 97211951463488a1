-- How many trajectories the search index holds, kept by triggers on step_search_doc, so a search learns whether the
-- index is complete (searchIndexLag) without counting 10^6 rows twice (257 ms at 10^6, once every few seconds).
-- Hand-written and listed in EXTERNAL_TABLES (lib/db/schema-engine.ts), like step_search_doc.
-- One row per statement's change, summed on read: concurrent indexers each append a row instead of waiting on one
-- counter row until they commit. The reader folds the rows into one when they pile up (foldIndexCount).
CREATE TABLE "step_search_count" (
    "id" BIGSERIAL PRIMARY KEY,
    "n" BIGINT NOT NULL
);
INSERT INTO "step_search_count" ("n") SELECT COUNT(*) FROM "step_search_doc";

CREATE FUNCTION "reterm_search_docs_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "step_search_count" ("n") SELECT COUNT(*) FROM new_docs HAVING COUNT(*) > 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "reterm_search_docs_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "step_search_count" ("n") SELECT -COUNT(*) FROM old_docs HAVING COUNT(*) > 0;
  RETURN NULL;
END $$;

-- TRUNCATE (reindexSearch clears the index that way) fires no row or DELETE trigger.
CREATE FUNCTION "reterm_search_docs_cleared"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "step_search_count";
  RETURN NULL;
END $$;

CREATE TRIGGER "step_search_doc_count_insert" AFTER INSERT ON "step_search_doc"
  REFERENCING NEW TABLE AS new_docs FOR EACH STATEMENT EXECUTE FUNCTION "reterm_search_docs_added"();
CREATE TRIGGER "step_search_doc_count_delete" AFTER DELETE ON "step_search_doc"
  REFERENCING OLD TABLE AS old_docs FOR EACH STATEMENT EXECUTE FUNCTION "reterm_search_docs_removed"();
CREATE TRIGGER "step_search_doc_count_truncate" AFTER TRUNCATE ON "step_search_doc"
  FOR EACH STATEMENT EXECUTE FUNCTION "reterm_search_docs_cleared"();
