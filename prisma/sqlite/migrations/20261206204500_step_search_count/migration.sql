-- How many trajectories the search index holds, kept by triggers on step_search_doc, so a search learns whether the
-- index is complete (searchIndexLag) without counting every row of two tables.
-- Hand-written and listed in EXTERNAL_TABLES (lib/db/schema-engine.ts), like step_search_doc. One row: SQLite has a
-- single writer, so nobody waits on it (PostgreSQL appends a row per statement instead).
CREATE TABLE "step_search_count" (
    "id" INTEGER PRIMARY KEY,
    "n" INTEGER NOT NULL
);
INSERT INTO "step_search_count" ("id", "n") SELECT 1, COUNT(*) FROM "step_search_doc";

CREATE TRIGGER "step_search_doc_count_insert" AFTER INSERT ON "step_search_doc" BEGIN
  UPDATE "step_search_count" SET "n" = "n" + 1 WHERE "id" = 1;
END;
CREATE TRIGGER "step_search_doc_count_delete" AFTER DELETE ON "step_search_doc" BEGIN
  UPDATE "step_search_count" SET "n" = "n" - 1 WHERE "id" = 1;
END;
