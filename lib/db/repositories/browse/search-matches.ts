// Where a search's facets read its matches on PostgreSQL: the search index's rows, which carry each indexed
// trajectory's facet key (20261206233000_search_doc_keys), as alias `c`.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { budgetedBatch } from "../../statement-timeout.ts";
import { CELL_BOUNDS, KEY_COLUMNS } from "./facet-cells.ts";

const sql = Prisma.sql;

export type Read = (query: Prisma.Sql) => Promise<unknown[]>;

/** The matching rows as alias `c`: a FROM item and the conditions that pick them out. */
export interface KeyedMatches {
  from: Prisma.Sql;
  where: Prisma.Sql[];
}

/** The matches read where they are indexed, by the search's predicate on alias `c`. */
export const indexedMatches = (match: Prisma.Sql): KeyedMatches => ({ from: sql`"step_search_doc" c`, where: [match] });

// What the facets read of a match: its trajectory, its cell key and the range columns the cells bound (never the word
// set, which is stored out of line). The index rows name them as the cells and Trajectory do.
const HIT_COLUMNS = ["trajectory_id", ...KEY_COLUMNS, ...new Set(CELL_BOUNDS.map(([, , column]) => column))];
const HITS = Prisma.raw(HIT_COLUMNS.map((c) => `c."${c}"`).join(", "));

/**
 * A query's matches read once for all its facet statements. Each facet is a statement of its own, and each read the
 * same matches again: at 10^6, five passes over `ModuleNotFoundError`'s 46,989 rows (181–375 ms each, 787 ms together
 * on two cores), the label, dataset and "annotated" facets probing each marked trajectory's row and its word set. Here
 * the statements `read` in one turn of the event loop run as one: a materialized CTE `hits` holds the matches' ids
 * and keys, each statement is a column of the one result row (its rows as JSON), and the marks are joined to the
 * hits (`join`): 663 → 380 ms p50 for that word's facets (docs/benchmarks.md, session 30). A statement read later
 * runs in a batch of its own, with its own read of the matches; so does each SharedMatches (the facets use two, side
 * by side on two connections). `tables` are derived from the hits and written once for the statements that read them
 * (a CTE no statement of the batch names is not computed).
 * Sequential scans are priced out, as for every read of the matches (facets.ts, matchIndexReader), and the hits get
 * the memory to stay out of temporary files (SET LOCAL: this transaction only).
 */
export interface SharedMatches {
  keyed: KeyedMatches;
  /** The search as a predicate on a trajectory id expression: the id is among the hits. */
  on(id: Prisma.Sql): Prisma.Sql;
  /**
   * The hits joined to a trajectory id expression, as alias `c` with the cell keys: one row per trajectory, so it
   * counts as the predicate would. For the marks: tested with `on`, the planner, which knows no distinct count for a
   * CTE, guessed 200 and looked each hit up in Annotation's index (46,989 probes, 120 ms at 10^6); joined, it
   * hashes.
   */
  join(id: Prisma.Sql): Prisma.Sql;
  read: Read;
}

interface Queued {
  query: Prisma.Sql;
  resolve(rows: unknown[]): void;
  reject(e: unknown): void;
}

/** A table derived from the hits that several statements of a batch read: written once (a materialized CTE). */
export interface SharedTable {
  name: string;
  query: Prisma.Sql;
}

/** The hits joined to a trajectory id expression (SharedMatches.join), for a SharedTable's query too. */
export const joinHits = (id: Prisma.Sql): Prisma.Sql => sql` JOIN "hits" c ON c."trajectory_id" = ${id}`;

/** Sequential scans priced out for this transaction: every read of a word's matches (see matchIndexReader in facets.ts). */
export const SEQ_SCANS_PRICED_OUT = sql`SELECT set_config('enable_seqscan', 'off', true)`;

const HITS_MEMORY = sql`SELECT set_config('work_mem', '32MB', true)`;

export function sharedMatches(db: Db, budgetMs: number | null, match: Prisma.Sql, tables: SharedTable[] = []): SharedMatches {
  const ctes = [
    sql`"hits" AS MATERIALIZED (SELECT ${HITS} FROM "step_search_doc" c WHERE ${match})`,
    ...tables.map(({ name, query }) => sql`${Prisma.raw(`"${name}"`)} AS MATERIALIZED (${query})`),
  ];
  let queued: Queued[] = [];
  async function run(batch: Queued[]): Promise<void> {
    const columns = batch.map(
      ({ query }, i) => sql`(SELECT COALESCE(json_agg(r), '[]'::json) FROM (${query}) r) AS ${Prisma.raw(`"r${i}"`)}`,
    );
    try {
      const [, , rows] = await budgetedBatch(db, budgetMs, [
        SEQ_SCANS_PRICED_OUT,
        HITS_MEMORY,
        sql`WITH ${Prisma.join(ctes)} SELECT ${Prisma.join(columns)}`,
      ]);
      const row = rows![0] as Record<string, unknown>;
      batch.forEach(({ resolve }, i) => {
        const value = row[`r${i}`];
        resolve((typeof value === "string" ? JSON.parse(value) : value) as unknown[]);
      });
    } catch (e) {
      for (const { reject } of batch) reject(e);
    }
  }
  return {
    keyed: { from: sql`"hits" c`, where: [] },
    on: (id) => sql`${id} IN (SELECT h."trajectory_id" FROM "hits" h)`,
    join: joinHits,
    read: (query) =>
      new Promise<unknown[]>((resolve, reject) => {
        if (!queued.length)
          queueMicrotask(() => {
            const batch = queued;
            queued = [];
            void run(batch);
          });
        queued.push({ query, resolve, reject });
      }),
  };
}
