-- Each indexed trajectory's set of words (no positions), under its own GIN index: a phrase, or several words that
-- must share a step, first narrows to the trajectories that hold all its words (one row each), and only those have
-- their steps checked (lib/db/repositories/search/postgres.ts). Without it such a search rechecked every step row
-- holding the words on the heap. Hand-written, like the tables it extends (20261129170000_step_search).

ALTER TABLE "step_search_doc" ADD COLUMN "words" TSVECTOR;

-- Keeps the rows narrow (seq and trajectory id inline, the words out of line), so reading the trajectory ids of many
-- matching rows touches few pages.
ALTER TABLE "step_search_doc" SET (toast_tuple_target = 128);

-- The words of what is indexed already, from its step rows (the same lexemes the import writes).
UPDATE "step_search_doc" d SET "words" = COALESCE(
    (SELECT array_to_tsvector(array_agg(DISTINCT w.lexeme))
       FROM "step_search" s CROSS JOIN LATERAL unnest(tsvector_to_array(s."tsv")) AS w(lexeme)
      WHERE s."trajectory_id" = d."trajectory_id"),
    ''::tsvector);

ALTER TABLE "step_search_doc" ALTER COLUMN "words" SET NOT NULL;

-- Building the index in memory, not in many merged runs (it holds one entry per word per trajectory).
SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX "step_search_doc_words_idx" ON "step_search_doc" USING GIN ("words");

-- The planner's word frequencies for the new column, before the first search needs them.
ANALYZE "step_search_doc";
