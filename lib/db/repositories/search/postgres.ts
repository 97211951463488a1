// Full-text search on PostgreSQL: step_search (row id = seq * 2^20 + step index, trajectory, tsvector with the
// 'simple' config: no stemming, no stop words) under a GIN index, beside step_search_doc (seq per trajectory).
import os from "node:os";
import type { Db } from "../../client.ts";
import { Prisma } from "../../generated/sqlite/client.ts";
import { totalSchema, wordCountSchema, type SearchProvider } from "./provider.ts";
import type { ParsedSearch } from "./text.ts";

type Term = ParsedSearch["terms"][number];
/** A term's last token is a prefix when the term ends in `*`. */
const isPrefix = (t: Term, i: number) => t.prefix && i === t.tokens.length - 1;
/** A term's tokens as tsquery operands. Tokens are letters and digits only (text.ts), so quoting them is always safe. */
const operands = (t: Term) => t.tokens.map((tok, i) => `'${tok}'${isPrefix(t, i) ? ":*" : ""}`);

/** PostgreSQL tsquery text (for to_tsquery('simple', …)). */
export function tsQueryExpression(s: ParsedSearch): string {
  return s.terms.map((t) => `(${operands(t).join(" <-> ")})`).join(" & ");
}

/** The words-only query on step_search_doc."words": every token of every term (prefixes kept), in any step. */
export function wordsQueryExpression(s: ParsedSearch): string {
  return s.terms.flatMap(operands).join(" & ");
}

/** One word (or prefix): holding it anywhere is matching it, so a trajectory's words answer exactly. */
const wordsAreExact = (s: ParsedSearch) => s.terms.length === 1 && s.terms[0]!.tokens.length === 1;

const stepMatch = (s: ParsedSearch) => Prisma.sql`s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)})`;
const wordsMatch = (s: ParsedSearch, alias = "d") =>
  Prisma.sql`${Prisma.raw(`"${alias}"`)}."words" @@ to_tsquery('simple', ${wordsQueryExpression(s)})`;

/**
 * Rows holding each word, from a tsvector column's most-common-element frequencies gathered by ANALYZE (times the
 * table's row estimate). A word outside that list is rare: it gets no row.
 */
async function elementCounts(db: Db, table: "step_search" | "step_search_doc", column: "tsv" | "words", words: string[]) {
  return wordCountSchema.parse(
    await db.$queryRaw<
      unknown[]
    >`SELECT f."elem" AS "w", f."freq" * (SELECT GREATEST(c."reltuples", 0) FROM pg_class c WHERE c."oid" = ${table}::regclass) AS "n"
      FROM pg_stats st, unnest(st."most_common_elems"::text::text[], st."most_common_elem_freqs") AS f("elem", "freq")
      WHERE st."schemaname" = current_schema() AND st."tablename" = ${table} AND st."attname" = ${column} AND f."elem" IN (${Prisma.join(words)})`,
  );
}

export const postgresSearch: SearchProvider = {
  // Each lane keeps a backend busy (reading and converting step text) and holds two of the pool's connections: one
  // per core of this machine, as a guess at the server's when it is elsewhere, up to 4 (the pool has 10).
  rebuildLanes: Math.min(4, Math.max(1, os.availableParallelism())),

  filterSql(s, form, id) {
    const fence = form === "hitSet" ? Prisma.sql` OFFSET 0` : Prisma.empty;
    if (form === "candidateProbe") {
      // OFFSET 0: a per-row check in list order; flattened into a semi-join it read every candidate first.
      return Prisma.sql`EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = ${id} AND ${wordsMatch(s)} OFFSET 0)`;
    }
    if (form === "probe") {
      return wordsAreExact(s)
        ? Prisma.sql`EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = ${id} AND ${wordsMatch(s)})`
        : Prisma.sql`EXISTS (SELECT 1 FROM "step_search" s WHERE s."trajectory_id" = ${id} AND ${stepMatch(s)})`;
    }
    // One row per trajectory instead of one per matching step: a word in 10^5 steps is a few 10^4 trajectories.
    if (form === "candidates" || wordsAreExact(s)) {
      return Prisma.sql`${id} IN (SELECT d."trajectory_id" FROM "step_search_doc" d WHERE ${wordsMatch(s)}${fence})`;
    }
    return Prisma.sql`${id} IN (SELECT s."trajectory_id" FROM "step_search" s WHERE ${stepMatch(s)}${fence})`;
  },

  // OFFSET 0 keeps it a per-row check: flattened into a join, PostgreSQL may check every candidate's steps at once.
  verifySql(s, id) {
    return wordsAreExact(s)
      ? null
      : Prisma.sql`EXISTS (SELECT 1 FROM "step_search" s WHERE s."trajectory_id" = ${id} AND ${stepMatch(s)} OFFSET 0)`;
  },

  // The rows carry their trajectory's facet key (20261206233000_search_doc_keys). Only for a query its words answer
  // exactly: a phrase also needs its step set, and joined to the rows that read 2.3× slower than Trajectory's probes
  // at 10^6 (3.7 against 1.6 s for `"no module named"` + failed), so a phrase's facets keep reading Trajectory.
  keyedMatchSql(s, alias) {
    return wordsAreExact(s) ? wordsMatch(s, alias) : null;
  },

  // A phrase's rows by its steps' trajectories alone: testing each row's words too read its word set back from the
  // TOAST table (650 of 1,075 ms for `"no module named"`'s 46,989 rows at 10^6), and a step holding the phrase holds them.
  matchRowsSql(s, alias) {
    if (wordsAreExact(s)) return wordsMatch(s, alias);
    return Prisma.sql`${Prisma.raw(`"${alias}"`)}."trajectory_id" IN (SELECT s."trajectory_id" FROM "step_search" s WHERE ${stepMatch(s)})`;
  },

  async candidateEstimate(db, s) {
    const words = [...new Set(s.terms.flatMap((t) => t.tokens.filter((_, i) => !isPrefix(t, i))))];
    if (!words.length) return 0;
    const counts = new Map((await elementCounts(db, "step_search_doc", "words", words)).map((r) => [r.w, r.n ?? 0]));
    return Math.min(...words.map((w) => counts.get(w) ?? 0));
  },

  // The words' index entries are intersected first, then the steps holding them all checked in turn until `limit` match.
  stepMatchesUpToSql(s, limit) {
    return Prisma.sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "step_search" s WHERE ${stepMatch(s)} LIMIT ${limit}) x`;
  },

  async wordCounts(db, words) {
    const perWord = await elementCounts(db, "step_search", "tsv", words);
    const trajectories =
      totalSchema.parse(
        await db.$queryRaw<unknown[]>`SELECT GREATEST(c."reltuples", 0) AS "n" FROM pg_class c WHERE c."oid" = '"Trajectory"'::regclass`,
      )[0]!.n ?? 0;
    return { perWord, trajectories };
  },

  firstMatchRows(db, ids, s) {
    return db.$queryRaw<
      unknown[]
    >`SELECT DISTINCT ON (s."trajectory_id") s."trajectory_id" AS "trajectoryId", s."rid" FROM "step_search" s WHERE s."trajectory_id" IN (${ids}) AND s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)}) ORDER BY s."trajectory_id", s."rid"`;
  },

  stepHitRows(db, s, opts) {
    return db.$queryRaw<
      unknown[]
    >`SELECT s."rid", s."trajectory_id" AS "trajectoryId" FROM "step_search" s WHERE s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)})${opts.beforeRid === undefined ? Prisma.empty : Prisma.sql` AND s."rid" < ${opts.beforeRid}`} ORDER BY s."rid" DESC LIMIT ${opts.limit}`;
  },

  // The doc trigger locks each trajectory FOR SHARE as its row is written (20261206233000_search_doc_keys): taking
  // them all first, in id order, keeps a batch from holding some while it waits for the next. The short wait covers
  // this statement only; RESET gives the rest of the transaction the server's own lock_timeout back.
  async lockForIndexing(tx, trajectoryIds, { bounded }) {
    if (bounded) await tx.$executeRaw`SET LOCAL lock_timeout = '250ms'`;
    await tx.$queryRaw`SELECT 1 FROM "Trajectory" WHERE "id" IN (${Prisma.join(trajectoryIds)}) ORDER BY "id" FOR SHARE`;
    if (bounded) await tx.$executeRaw`RESET lock_timeout`;
  },

  insertDocs(db, docs) {
    return db.$queryRaw<
      unknown[]
    >`INSERT INTO "step_search_doc" ("trajectory_id", "words") VALUES ${Prisma.join(docs.map((d) => Prisma.sql`(${d.trajectoryId}, strip(to_tsvector('simple', ${d.words})))`))} ON CONFLICT ("trajectory_id") DO NOTHING RETURNING "seq", "trajectory_id" AS "trajectoryId"`;
  },

  async insertRows(db, rows) {
    await db.$executeRaw`INSERT INTO "step_search" ("rid", "trajectory_id", "tsv") VALUES ${Prisma.join(rows.map((r) => Prisma.sql`(CAST(${r.rid} AS BIGINT), ${r.trajectoryId}, to_tsvector('simple', ${r.body}))`))}`;
  },

  async removeRows(db, trajectoryId) {
    await db.$executeRaw`DELETE FROM "step_search" WHERE "trajectory_id" = ${trajectoryId}`;
  },

  // Building the GIN index once at the end is several times faster than maintaining it row by row.
  async clearIndex(db) {
    await db.$transaction([
      db.$executeRaw`TRUNCATE "step_search", "step_search_doc"`,
      db.$executeRaw`DROP INDEX IF EXISTS "step_search_tsv_idx"`,
      db.$executeRaw`DROP INDEX IF EXISTS "step_search_doc_words_idx"`,
    ]);
  },

  async afterRebuild(db) {
    await db.$transaction(
      [
        db.$executeRaw`SET LOCAL maintenance_work_mem = '256MB'`,
        db.$executeRaw`CREATE INDEX IF NOT EXISTS "step_search_tsv_idx" ON "step_search" USING GIN ("tsv")`,
        db.$executeRaw`CREATE INDEX IF NOT EXISTS "step_search_doc_words_idx" ON "step_search_doc" USING GIN ("words")`,
      ],
      { timeout: 3_600_000 },
    );
  },

  // One statement: rows that indexers append meanwhile are outside its snapshot, so they stay and nothing is lost.
  async foldIndexCount(db) {
    await db.$executeRaw`WITH "gone" AS (DELETE FROM "step_search_count" RETURNING "n") INSERT INTO "step_search_count" ("n") SELECT COALESCE(SUM("n"), 0) FROM "gone"`;
  },
};
