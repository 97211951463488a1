// What each database supplies for full-text search (sqlite.ts: FTS5; postgres.ts: tsvector + GIN). read.ts and
// write.ts hold everything else, once for both.
import { z } from "zod";
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { Queryable } from "../../dialect.ts";
import type { ParsedSearch } from "./text.ts";

/**
 * How a search predicate is evaluated. "hits": read every matching step from the index, then keep the trajectories
 * among them (right for rare terms, and for anything that visits every match anyway: facets, "select all").
 * "probe": ask the index about each candidate trajectory in list order (right for a term in most trajectories when
 * only a page and a capped count are wanted: the walk stops after a few dozen or a thousand rows instead of reading
 * a posting list as long as the table).
 * "hitSet": "hits" read as a set of their own first (PostgreSQL: an OFFSET 0 fence; SQLite plans it so anyway), for a
 * capped count of a rare term. Left to the planner, PostgreSQL's capped count (LIMIT 1001) walked step_search in
 * trajectory order checking every row's tsvector, expecting matches early: 670 ms cold / 155 ms warm for a word in
 * 15,000 steps at 10^5 trajectories, 45 ms fenced. Not for a page: with LIMIT 26 it then loops over the whole set
 * for every candidate (2.2 s), where the unfenced form probes the index per candidate (40 ms). A phrase's page does
 * use it (search-plan.ts, STEP_SET_PLAN): estimated from its common words, unfenced, it walked every trajectory.
 * "candidates" and "candidateProbe": a necessary condition only, for a query that verifySql must then confirm (a
 * phrase, or several terms that must share a step): the trajectory holds all its words. "candidates" reads them as a
 * set (a capped count confirms them one by one until the cap); "candidateProbe" checks each trajectory in list order
 * (a page of a query with many candidates: the walk stops after a page). trajectories.ts picks by counting the
 * candidates first (search-plan.ts).
 */
export type SearchForm = "hits" | "hitSet" | "probe" | "candidates" | "candidateProbe";

export const wordCountSchema = z.array(z.object({ w: z.string(), n: z.coerce.number().nullable() }));
export const totalSchema = z.array(z.object({ n: z.coerce.number().nullable() })).length(1);
export const seqRowSchema = z.array(z.object({ seq: z.coerce.number().int(), trajectoryId: z.string() }));

/** One index row: row id (seq * 2^20 + step index), its trajectory, the normalized tokens. */
export interface IndexRow {
  rid: number;
  trajectoryId: string;
  body: string;
}

/** A trajectory entering the index: its distinct words (docWords), kept by PostgreSQL only. */
export interface IndexDoc {
  trajectoryId: string;
  words: string;
}

export interface SearchProvider {
  /** How many pipelines a full rebuild runs at once (reindexSearch): 1 where the database takes one writer. */
  readonly rebuildLanes: number;
  /** SQL predicate on a trajectory id expression (`t."id"` in the browser): it has at least one step matching the query. */
  filterSql(s: ParsedSearch, form: SearchForm, id: Prisma.Sql): Prisma.Sql;
  /**
   * The exact check on a trajectory id expression, for a query whose "candidates" form is not exact; null when it is
   * (then that form alone decides).
   */
  verifySql(s: ParsedSearch, id: Prisma.Sql): Prisma.Sql | null;
  /**
   * A predicate on step_search_doc rows (alias `alias`): the row's trajectory matches the query. Null when the index
   * keeps no facet keys on its rows (SQLite) or the rows alone do not answer the query (a phrase on PostgreSQL), so the
   * caller reads the matches' keys from Trajectory instead.
   */
  keyedMatchSql(s: ParsedSearch, alias: string): Prisma.Sql | null;
  /**
   * Like keyedMatchSql, for any query: a phrase's (or several words') rows are those of the trajectories that have a
   * step matching it. For a caller that reads the rows once for many statements (the facets' shared matches), where
   * the step set's cost is paid once. Null when the rows keep no keys (SQLite).
   */
  matchRowsSql(s: ParsedSearch, alias: string): Prisma.Sql | null;
  /**
   * At most how many trajectories hold all the query's words, from the index's statistics (PostgreSQL: the least
   * frequent of its words among the trajectories' word sets; a word too rare to have a frequency counts as 0).
   * Only asked when verifySql is not null.
   */
  candidateEstimate(db: Db, s: ParsedSearch): Promise<number>;
  /** How many steps match the query, counted up to `limit`: a COUNT(*)-shaped statement (column n). */
  stepMatchesUpToSql(s: ParsedSearch, limit: number): Prisma.Sql;
  /** Indexed steps per plain word (from the index's own statistics), and how many trajectories there are. */
  wordCounts(db: Db, words: string[]): Promise<{ perWord: z.output<typeof wordCountSchema>; trajectories: number }>;
  /** Rows `{ trajectoryId, rid }`: the first matching step's row id of each of the trajectories `ids` (rid null: none). */
  firstMatchRows(db: Queryable, ids: Prisma.Sql, s: ParsedSearch): Promise<unknown[]>;
  /** Rows `{ rid, trajectoryId }`: matching steps, highest row id first, below `beforeRid` when given. */
  stepHitRows(db: Queryable, s: ParsedSearch, opts: { limit: number; beforeRid?: number }): Promise<unknown[]>;
  /**
   * Before a batch's docs are written in transaction `tx`: lock the trajectories whose keys the docs copy (PostgreSQL:
   * FOR SHARE, in id order), giving up past a short wait when `bounded` (see writeBatch in write.ts). SQLite: nothing.
   */
  lockForIndexing(tx: Queryable, trajectoryIds: string[], opts: { bounded: boolean }): Promise<void>;
  /** Add the trajectories' step_search_doc rows; rows `{ seq, trajectoryId }` for those not indexed before. */
  insertDocs(db: Queryable, docs: IndexDoc[]): Promise<unknown[]>;
  /** Insert index rows (at most a few hundred: the caller chunks). */
  insertRows(db: Queryable, rows: IndexRow[]): Promise<void>;
  /** Drop a trajectory's index rows, before its step_search_doc row goes. */
  removeRows(db: Queryable, trajectoryId: string): Promise<void>;
  /** Empty the whole index before a rebuild. */
  clearIndex(db: Db): Promise<void>;
  /** After a rebuild, finished or not (PostgreSQL: the GIN index dropped by clearIndex comes back). */
  afterRebuild(db: Db): Promise<void>;
  /** Fold step_search_count's rows into one, keeping their sum (PostgreSQL appends a row per indexing statement). */
  foldIndexCount(db: Db): Promise<void>;
}
