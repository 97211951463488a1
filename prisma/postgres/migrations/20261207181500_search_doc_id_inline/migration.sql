-- The trajectory id kept inline as well. A row past 2 kB is toasted down to the table's toast_tuple_target of 128
-- bytes (20261205220000_step_search_words); once the words are out of line the row is still over that target, so the
-- toaster moved the id out next. Every statement that read the ids of many matches (a search's capped count, the
-- facets of labels, datasets and annotations joined by id) then fetched each one back from the TOAST table: three
-- buffer reads per match, 1.6 times the search page's time for a rare word at 10^6.
ALTER TABLE "step_search_doc" ALTER COLUMN "trajectory_id" SET STORAGE PLAIN;

-- SET STORAGE applies to rows written from now on. CLUSTER writes every row again, fetching a value stored out of line
-- and keeping it inline where the column is now PLAIN, in the order the rows were indexed: an UPDATE of the moved ids
-- would append their rows at the table's end instead, and a search page walking trajectories in list order would
-- read twice the pages (pip install 242 → 430 ms at 10^6). 84 s at 10^6; the table is locked meanwhile.
CLUSTER "step_search_doc" USING "step_search_doc_pkey";
