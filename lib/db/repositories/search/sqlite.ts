// Full-text search on SQLite: a contentless FTS5 table (step_fts, row id = seq * 2^20 + step index) beside
// step_search_doc (seq per trajectory).
import { Prisma } from "../../generated/sqlite/client.ts";
import { totalSchema, wordCountSchema, type SearchProvider } from "./provider.ts";
import type { ParsedSearch } from "./text.ts";

/** FTS5 query string. Tokens are letters/digits only, so quoting them is always safe. */
export function ftsMatchExpression(s: ParsedSearch): string {
  return s.terms.map((t) => `"${t.tokens.join(" ")}"${t.prefix ? "*" : ""}`).join(" AND ");
}

export const sqliteSearch: SearchProvider = {
  // One writer at a time: a second lane would only wait for the first's transactions.
  rebuildLanes: 1,

  filterSql(s, form, id) {
    if (form === "probe" || form === "candidateProbe") {
      // The rowid range of the trajectory's steps (seq * 2^20 …) lets FTS5 seek in the doclist, not read it all.
      return Prisma.sql`EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = ${id} AND EXISTS (SELECT 1 FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)} AND "rowid" >= d."seq" * 1048576 AND "rowid" < (d."seq" + 1) * 1048576))`;
    }
    // "candidates" too: FTS5 answers phrases from its position lists, so its hits are already exact.
    return Prisma.sql`${id} IN (SELECT d."trajectory_id" FROM "step_search_doc" d WHERE d."seq" IN (SELECT "rowid" >> 20 FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)}))`;
  },

  verifySql: () => null,
  // Its docs table keeps no facet keys: on one machine's data the facets read the matches' keys from Trajectory.
  keyedMatchSql: () => null,
  matchRowsSql: () => null,
  candidateEstimate: async () => 0,

  stepMatchesUpToSql(s, limit) {
    return Prisma.sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)} LIMIT ${limit})`;
  },

  async wordCounts(db, words) {
    const [perWord, trajectories] = await db.$transaction(async (tx) => {
      // A temp table is per connection and needs no migration; the interactive transaction keeps one connection.
      await tx.$executeRawUnsafe(`CREATE VIRTUAL TABLE IF NOT EXISTS temp."step_fts_vocab" USING fts5vocab(main, "step_fts", row)`);
      const w = wordCountSchema.parse(
        await tx.$queryRaw<
          unknown[]
        >`SELECT v."term" AS "w", v."doc" AS "n" FROM temp."step_fts_vocab" v WHERE v."term" IN (${Prisma.join(words)})`,
      );
      // All trajectories, not only the indexed ones: the probe walks every candidate, and while the index lags an
      // import the unindexed ones never match. MAX(rowid) is one b-tree lookup (deleted rows only make it larger).
      const n =
        totalSchema.parse(
          await tx.$queryRaw<
            unknown[]
          >`SELECT MAX((SELECT MAX("rowid") FROM "Trajectory"), (SELECT MAX("seq") FROM "step_search_doc")) AS "n"`,
        )[0]!.n ?? 0;
      return [w, n] as const;
    });
    return { perWord, trajectories };
  },

  firstMatchRows(db, ids, s) {
    return db.$queryRaw<
      unknown[]
    >`SELECT d."trajectory_id" AS "trajectoryId", (SELECT "rowid" FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)} AND "rowid" >= d."seq" * 1048576 AND "rowid" < (d."seq" + 1) * 1048576 ORDER BY "rowid" LIMIT 1) AS "rid" FROM "step_search_doc" d WHERE d."trajectory_id" IN (${ids})`;
  },

  stepHitRows(db, s, opts) {
    const before = opts.beforeRid === undefined ? Prisma.empty : Prisma.sql` AND "rowid" < ${opts.beforeRid}`;
    return db.$queryRaw<
      unknown[]
    >`SELECT h."rid", d."trajectory_id" AS "trajectoryId" FROM (SELECT "rowid" AS "rid" FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)}${before} ORDER BY "rowid" DESC LIMIT ${opts.limit}) h JOIN "step_search_doc" d ON d."seq" = (h."rid" >> 20) ORDER BY h."rid" DESC`;
  },

  // One writer at a time: nothing to lock.
  async lockForIndexing() {},

  // The words are PostgreSQL's narrowing index; FTS5 answers phrases from its own position lists.
  insertDocs(db, docs) {
    return db.$queryRaw<
      unknown[]
    >`INSERT INTO "step_search_doc" ("trajectory_id") VALUES ${Prisma.join(docs.map((d) => Prisma.sql`(${d.trajectoryId})`))} ON CONFLICT ("trajectory_id") DO NOTHING RETURNING "seq", "trajectory_id" AS "trajectoryId"`;
  },

  async insertRows(db, rows) {
    await db.$executeRaw`INSERT INTO "step_fts" ("rowid", "body") VALUES ${Prisma.join(rows.map((r) => Prisma.sql`(${r.rid}, ${r.body})`))}`;
  },

  // Nothing: orphaned FTS postings stay until reindexSearch, unreachable without their doc row.
  async removeRows() {},

  async clearIndex(db) {
    await db.$transaction([
      db.$executeRaw`INSERT INTO "step_fts" ("step_fts") VALUES ('delete-all')`,
      db.$executeRaw`DELETE FROM "step_search_doc"`,
    ]);
  },

  async afterRebuild() {},

  // Nothing: SQLite's triggers keep the count in one row.
  async foldIndexCount() {},
};
