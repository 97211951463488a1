-- The trajectory id kept inline as well. A row past 2 kB is toasted down to the table's toast_tuple_target of 128
-- bytes (20261205220000_step_search_words); once the words are out of line the row is still over that target, so the
-- toaster moved the id out next. Every statement that read the ids of many matches (a search's capped count, the
-- facets of labels, datasets and annotations joined by id) then fetched each one back from the TOAST table: three
-- buffer reads per match, 1.6 times the search page's time for a rare word at 10^6.
ALTER TABLE "step_search_doc" ALTER COLUMN "trajectory_id" SET STORAGE PLAIN;

-- SET STORAGE applies to rows written from now on; the rows written before are rewritten here, those whose id is out
-- of line (or compressed): an inline id takes its length plus a header. 96 s for 485,340 of 10^6 rows.
UPDATE "step_search_doc" SET "trajectory_id" = "trajectory_id" || ''
WHERE pg_column_size("trajectory_id") <= octet_length("trajectory_id");
