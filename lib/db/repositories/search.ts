// Terminal-aware full-text search over steps, behind one interface for both databases.
// Index: the ANSI-stripped text of each step's command, output, reasoning and message, normalized to lowercase
// letter/digit tokens (paths, flags and identifiers split at punctuation, so `tests/test_io.py` is the phrase
// "tests test io py"). SQLite keeps it in a contentless FTS5 table, PostgreSQL in a tsvector column with a GIN
// index ('simple' config: no stemming, no stop words). Both index the same token stream and receive the same
// parsed query, so a query means the same thing on either database. Row ids: seq * 2^20 + step index, where seq
// numbers trajectories in indexing order (step_search_doc), so hits sort newest-indexed first on both.
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { z } from "zod";
import { Prisma } from "../generated/sqlite/client.ts";
import type { Db } from "../client.ts";
import { stripAnsi } from "../../domain/ansi.ts";

export type Queryable = Db | Prisma.TransactionClient;
export type Dialect = "sqlite" | "postgresql";

const dialectSchema = z.enum(["sqlite", "postgresql"]);
/** Which SQL dialect a client (or transaction client) speaks. */
export function dialectOf(db: Queryable): Dialect {
  return dialectSchema.parse(Reflect.get(db, "_activeProvider"));
}

export const STEP_BITS = 2 ** 20;
export const MAX_TOKEN_LENGTH = 64;
// Per step: the first HEAD and last TAIL tokens. Bounds index size and PostgreSQL's 1 MB tsvector limit; the tail
// keeps the end of long outputs (where errors usually are) searchable.
const HEAD_TOKENS = 8000;
const TAIL_TOKENS = 2000;
const MAX_FIELD_CHARS = 2_000_000;
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/** The step fields that are searched, in the order they are indexed and shown. */
export interface StepText {
  index?: number;
  action?: string | null;
  observation?: string | null;
  reasoning?: string | null;
  message?: string | null;
}
export const SEARCH_FIELDS = ["action", "observation", "reasoning", "message"] as const;

/** Lowercase letter/digit tokens with their position in `text` (overlong tokens such as base64 blobs are dropped). */
export function* tokenSpans(text: string): Generator<{ token: string; start: number; end: number }> {
  for (const m of text.matchAll(TOKEN_RE)) {
    if (m[0].length <= MAX_TOKEN_LENGTH) yield { token: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length };
  }
}

export function searchTokens(text: string): string[] {
  return Array.from(tokenSpans(text), (t) => t.token);
}

function capField(s: string): string {
  return s.length <= MAX_FIELD_CHARS ? s : `${s.slice(0, MAX_FIELD_CHARS * 0.75)}\n${s.slice(-MAX_FIELD_CHARS * 0.25)}`;
}

/** What gets indexed for one step: normalized tokens separated by spaces ("" when the step has no text). */
export function searchBody(step: StepText): string {
  const tokens: string[] = [];
  for (const f of SEARCH_FIELDS) {
    const v = step[f];
    if (v) tokens.push(...searchTokens(stripAnsi(capField(v))));
  }
  const kept = tokens.length <= HEAD_TOKENS + TAIL_TOKENS ? tokens : [...tokens.slice(0, HEAD_TOKENS), ...tokens.slice(-TAIL_TOKENS)];
  return kept.join(" ");
}

/** Index rows for a trajectory's steps: (row id offset = step index, body), skipping steps without text. */
export function searchRows(steps: readonly StepText[]): { index: number; body: string }[] {
  const rows: { index: number; body: string }[] = [];
  steps.forEach((s, i) => {
    const index = s.index ?? i;
    const body = index < STEP_BITS ? searchBody(s) : "";
    if (body) rows.push({ index, body });
  });
  return rows;
}

/** A query term: one token, or a phrase of adjacent tokens; `prefix` makes the last token a prefix match. */
export interface SearchTerm {
  tokens: string[];
  prefix: boolean;
}
export interface ParsedSearch {
  terms: SearchTerm[];
}

const MAX_TERMS = 8;
const MAX_PHRASE = 16;

/**
 * Parse what a user typed: words (all must occur in the same step), "quoted phrases", and `word*` prefixes.
 * A word with punctuation (`ModuleNotFoundError:`, `--release`, `src/main.rs`) becomes the phrase of its tokens.
 * Returns null when nothing searchable is left.
 */
export function parseSearchQuery(q: string): ParsedSearch | null {
  const terms: SearchTerm[] = [];
  for (const m of q.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const quoted = m[1] !== undefined;
    const raw = (quoted ? m[1] : m[2]) ?? "";
    const tokens = searchTokens(raw).slice(0, MAX_PHRASE);
    if (!tokens.length) continue;
    terms.push({ tokens, prefix: !quoted && raw.endsWith("*") && tokens.at(-1)!.length >= 2 });
    if (terms.length === MAX_TERMS) break;
  }
  return terms.length ? { terms } : null;
}

/** FTS5 query string. Tokens are letters/digits only, so quoting them is always safe. */
export function ftsMatchExpression(s: ParsedSearch): string {
  return s.terms.map((t) => `"${t.tokens.join(" ")}"${t.prefix ? "*" : ""}`).join(" AND ");
}

/** PostgreSQL tsquery text (for to_tsquery('simple', …)). */
export function tsQueryExpression(s: ParsedSearch): string {
  return s.terms
    .map((t) => `(${t.tokens.map((tok, i) => `'${tok}'${t.prefix && i === t.tokens.length - 1 ? ":*" : ""}`).join(" <-> ")})`)
    .join(" & ");
}

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
 * for every candidate (2.2 s), where the unfenced form probes the index per candidate (40 ms).
 */
export type SearchForm = "hits" | "hitSet" | "probe";

/** SQL predicate on the trajectory alias `t`: it has at least one step matching the query. */
export function searchFilterSql(dialect: Dialect, s: ParsedSearch, form: SearchForm = "hits"): Prisma.Sql {
  if (form === "probe") {
    // SQLite: the rowid range of the trajectory's steps (seq * 2^20 …) lets FTS5 seek in the doclist, not read it all.
    return dialect === "sqlite"
      ? Prisma.sql`EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = t."id" AND EXISTS (SELECT 1 FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)} AND "rowid" >= d."seq" * 1048576 AND "rowid" < (d."seq" + 1) * 1048576))`
      : Prisma.sql`EXISTS (SELECT 1 FROM "step_search" s WHERE s."trajectory_id" = t."id" AND s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)}))`;
  }
  return dialect === "sqlite"
    ? Prisma.sql`t."id" IN (SELECT d."trajectory_id" FROM "step_search_doc" d WHERE d."seq" IN (SELECT "rowid" >> 20 FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)}))`
    : Prisma.sql`t."id" IN (SELECT s."trajectory_id" FROM "step_search" s WHERE s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)})${form === "hitSet" ? Prisma.sql` OFFSET 0` : Prisma.empty})`;
}

const wordCountSchema = z.array(z.object({ w: z.string(), n: z.coerce.number().nullable() }));
const totalSchema = z.array(z.object({ n: z.coerce.number().nullable() })).length(1);

/**
 * Whether a query is common enough that probing candidates in list order (SearchForm "probe") beats reading its
 * hits: each of its plain one-word terms occurs in at least as many indexed steps as there are trajectories
 * (on average one matching step per trajectory; every term must be, as all must match). Phrases and prefixes give
 * no estimate (they may be far rarer than their words), so a query made only of them is treated as rare. Estimates
 * come from the index's own statistics: FTS5's vocabulary table on SQLite (one b-tree lookup per word), the tsvector
 * column's most-common-element frequencies gathered by ANALYZE on PostgreSQL (a word outside that list is rare).
 */
export async function isCommonSearch(db: Db, s: ParsedSearch): Promise<boolean> {
  const words = [...new Set(s.terms.filter((t) => t.tokens.length === 1 && !t.prefix).map((t) => t.tokens[0]!))];
  if (!words.length) return false;
  let perWord: z.output<typeof wordCountSchema>;
  let trajectories: number;
  if (dialectOf(db) === "sqlite") {
    [perWord, trajectories] = await db.$transaction(async (tx) => {
      // A temp table is per connection and needs no migration; the interactive transaction keeps one connection.
      await tx.$executeRawUnsafe(`CREATE VIRTUAL TABLE IF NOT EXISTS temp."step_fts_vocab" USING fts5vocab(main, "step_fts", row)`);
      const w = wordCountSchema.parse(await tx.$queryRaw<unknown[]>`SELECT v."term" AS "w", v."doc" AS "n" FROM temp."step_fts_vocab" v WHERE v."term" IN (${Prisma.join(words)})`);
      // All trajectories, not only the indexed ones: the probe walks every candidate, and while the index lags an
      // import the unindexed ones never match. MAX(rowid) is one b-tree lookup (deleted rows only make it larger).
      const n = totalSchema.parse(await tx.$queryRaw<unknown[]>`SELECT MAX((SELECT MAX("rowid") FROM "Trajectory"), (SELECT MAX("seq") FROM "step_search_doc")) AS "n"`)[0]!.n ?? 0;
      return [w, n] as const;
    });
  } else {
    perWord = wordCountSchema.parse(
      await db.$queryRaw<unknown[]>`SELECT f."elem" AS "w", f."freq" * (SELECT GREATEST(c."reltuples", 0) FROM pg_class c WHERE c."oid" = 'step_search'::regclass) AS "n"
        FROM pg_stats st, unnest(st."most_common_elems"::text::text[], st."most_common_elem_freqs") AS f("elem", "freq")
        WHERE st."schemaname" = current_schema() AND st."tablename" = 'step_search' AND st."attname" = 'tsv' AND f."elem" IN (${Prisma.join(words)})`,
    );
    trajectories = totalSchema.parse(await db.$queryRaw<unknown[]>`SELECT GREATEST(c."reltuples", 0) AS "n" FROM pg_class c WHERE c."oid" = '"Trajectory"'::regclass`)[0]!.n ?? 0;
  }
  const counts = new Map(perWord.map((r) => [r.w, r.n ?? 0]));
  const least = Math.min(...words.map((w) => counts.get(w) ?? 0));
  return trajectories > 0 && least >= trajectories;
}

const hitRowSchema = z.object({ trajectoryId: z.string(), rid: z.coerce.number().int().nullable() });

/** The first matching step of each given trajectory (trajectories without a match are left out). */
export async function findFirstMatchingSteps(db: Queryable, trajectoryIds: string[], s: ParsedSearch): Promise<Map<string, number>> {
  if (!trajectoryIds.length) return new Map();
  const ids = Prisma.join(trajectoryIds);
  const rows =
    dialectOf(db) === "sqlite"
      ? await db.$queryRaw<unknown[]>`SELECT d."trajectory_id" AS "trajectoryId", (SELECT "rowid" FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)} AND "rowid" >= d."seq" * 1048576 AND "rowid" < (d."seq" + 1) * 1048576 ORDER BY "rowid" LIMIT 1) AS "rid" FROM "step_search_doc" d WHERE d."trajectory_id" IN (${ids})`
      : await db.$queryRaw<unknown[]>`SELECT DISTINCT ON (s."trajectory_id") s."trajectory_id" AS "trajectoryId", s."rid" FROM "step_search" s WHERE s."trajectory_id" IN (${ids}) AND s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)}) ORDER BY s."trajectory_id", s."rid"`;
  const out = new Map<string, number>();
  for (const r of z.array(hitRowSchema).parse(rows)) if (r.rid !== null) out.set(r.trajectoryId, r.rid % STEP_BITS);
  return out;
}

export interface StepHitRef {
  rid: number;
  trajectoryId: string;
  stepIndex: number;
}

/** Matching steps across all trajectories, newest-indexed first; `beforeRid` continues a previous page. */
export async function findStepHits(db: Queryable, s: ParsedSearch, opts: { limit: number; beforeRid?: number }): Promise<StepHitRef[]> {
  const before = opts.beforeRid === undefined ? Prisma.empty : Prisma.sql` AND "rowid" < ${opts.beforeRid}`;
  const rows =
    dialectOf(db) === "sqlite"
      ? await db.$queryRaw<unknown[]>`SELECT h."rid", d."trajectory_id" AS "trajectoryId" FROM (SELECT "rowid" AS "rid" FROM "step_fts" WHERE "step_fts" MATCH ${ftsMatchExpression(s)}${before} ORDER BY "rowid" DESC LIMIT ${opts.limit}) h JOIN "step_search_doc" d ON d."seq" = (h."rid" >> 20) ORDER BY h."rid" DESC`
      : await db.$queryRaw<unknown[]>`SELECT s."rid", s."trajectory_id" AS "trajectoryId" FROM "step_search" s WHERE s."tsv" @@ to_tsquery('simple', ${tsQueryExpression(s)})${opts.beforeRid === undefined ? Prisma.empty : Prisma.sql` AND s."rid" < ${opts.beforeRid}`} ORDER BY s."rid" DESC LIMIT ${opts.limit}`;
  return z
    .array(hitRowSchema.extend({ rid: z.coerce.number().int() }))
    .parse(rows)
    .map((r) => ({ rid: r.rid, trajectoryId: r.trajectoryId, stepIndex: r.rid % STEP_BITS }));
}

/** The searchable fields of the given steps. */
export async function findStepTexts(db: Queryable, refs: { trajectoryId: string; stepIndex: number }[]): Promise<(StepText & { trajectoryId: string; index: number })[]> {
  if (!refs.length) return [];
  return db.step.findMany({
    where: { OR: refs.map((r) => ({ trajectoryId: r.trajectoryId, index: r.stepIndex })) },
    select: { trajectoryId: true, index: true, action: true, observation: true, reasoning: true, message: true },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Writing the index

const seqRowSchema = z.array(z.object({ seq: z.coerce.number().int(), trajectoryId: z.string() }));
const INSERT_CHUNK = 200;

async function allocateSeqs(db: Queryable, trajectoryIds: string[]): Promise<Map<string, number>> {
  const values = Prisma.join(trajectoryIds.map((id) => Prisma.sql`(${id})`));
  const rows = await db.$queryRaw<unknown[]>`INSERT INTO "step_search_doc" ("trajectory_id") VALUES ${values} ON CONFLICT ("trajectory_id") DO NOTHING RETURNING "seq", "trajectory_id" AS "trajectoryId"`;
  return new Map(seqRowSchema.parse(rows).map((r) => [r.trajectoryId, r.seq]));
}

async function insertRows(db: Queryable, rows: { rid: number; trajectoryId: string; body: string }[]): Promise<void> {
  const dialect = dialectOf(db);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    if (dialect === "sqlite") {
      await db.$executeRaw`INSERT INTO "step_fts" ("rowid", "body") VALUES ${Prisma.join(chunk.map((r) => Prisma.sql`(${r.rid}, ${r.body})`))}`;
    } else {
      await db.$executeRaw`INSERT INTO "step_search" ("rid", "trajectory_id", "tsv") VALUES ${Prisma.join(chunk.map((r) => Prisma.sql`(CAST(${r.rid} AS BIGINT), ${r.trajectoryId}, to_tsvector('simple', ${r.body}))`))}`;
    }
  }
}

/**
 * Index trajectories' steps. Idempotent: a trajectory that is already indexed is skipped. Call inside the
 * transaction that writes the steps, so a trajectory is searchable exactly when it is visible.
 */
export async function indexTrajectoriesForSearch(db: Queryable, items: { trajectoryId: string; steps: readonly StepText[] }[]): Promise<number> {
  if (!items.length) return 0;
  const seqs = await allocateSeqs(db, items.map((i) => i.trajectoryId));
  const rows = items.flatMap(({ trajectoryId, steps }) => {
    const seq = seqs.get(trajectoryId);
    return seq === undefined ? [] : searchRows(steps).map((r) => ({ rid: seq * STEP_BITS + r.index, trajectoryId, body: r.body }));
  });
  await insertRows(db, rows);
  return seqs.size;
}

/** Index one trajectory's steps inside a caller's transaction (imports index in a separate phase: see indexMissingTrajectories). */
export async function indexStepsForSearch(tx: Queryable, trajectoryId: string, steps: readonly StepText[]): Promise<void> {
  await indexTrajectoriesForSearch(tx, [{ trajectoryId, steps }]);
}

export type SearchRow = ReturnType<typeof searchRows>[number];

/**
 * For the bulk writer's own better-sqlite3 connection, inside its transaction: index rows made by `searchRows`
 * (pure, so they can be prepared with the other rows, off the writing thread). Idempotent like the rest.
 */
export function indexRowsSqlite(database: BetterSqlite3.Database, trajectoryId: string, rows: readonly SearchRow[]): void {
  const doc = database.prepare(`INSERT INTO "step_search_doc" ("trajectory_id") VALUES (?) ON CONFLICT ("trajectory_id") DO NOTHING RETURNING "seq"`).get(trajectoryId);
  const parsed = z.object({ seq: z.number().int() }).safeParse(doc);
  if (!parsed.success) return;
  const insert = database.prepare(`INSERT INTO "step_fts" ("rowid", "body") VALUES (?, ?)`);
  for (const r of rows) insert.run(parsed.data.seq * STEP_BITS + r.index, r.body);
}

/** For the bulk writer's own pg connection, inside its transaction: a batch of trajectories in two statements. */
export async function indexRowsPg(client: pg.ClientBase, items: { trajectoryId: string; rows: readonly SearchRow[] }[]): Promise<void> {
  if (!items.length) return;
  const docs = await client.query(`INSERT INTO "step_search_doc" ("trajectory_id") SELECT * FROM unnest($1::text[]) ON CONFLICT ("trajectory_id") DO NOTHING RETURNING "seq", "trajectory_id" AS "trajectoryId"`, [items.map((i) => i.trajectoryId)]);
  const seqs = new Map(seqRowSchema.parse(docs.rows).map((r) => [r.trajectoryId, r.seq]));
  const rids: string[] = [];
  const ids: string[] = [];
  const bodies: string[] = [];
  for (const { trajectoryId, rows } of items) {
    const seq = seqs.get(trajectoryId);
    if (seq === undefined) continue;
    for (const r of rows) {
      rids.push(String(seq * STEP_BITS + r.index));
      ids.push(trajectoryId);
      bodies.push(r.body);
    }
  }
  if (rids.length) await client.query(`INSERT INTO "step_search" ("rid", "trajectory_id", "tsv") SELECT r, t, to_tsvector('simple', b) FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(r, t, b)`, [rids, ids, bodies]);
}

export const indexStepsSqlite = (database: BetterSqlite3.Database, trajectoryId: string, steps: readonly StepText[]) => indexRowsSqlite(database, trajectoryId, searchRows(steps));
export const indexStepsPg = (client: pg.ClientBase, items: { trajectoryId: string; steps: readonly StepText[] }[]) =>
  indexRowsPg(client, items.map((i) => ({ trajectoryId: i.trajectoryId, rows: searchRows(i.steps) })));

/**
 * Take a trajectory out of the search index (it becomes "missing" and is re-indexed by the next catch-up).
 * SQLite keeps the orphaned FTS postings until reindexSearch; they are unreachable without their doc row.
 */
export async function removeFromSearchIndex(db: Queryable, trajectoryId: string): Promise<void> {
  if (dialectOf(db) === "postgresql") await db.$executeRaw`DELETE FROM "step_search" WHERE "trajectory_id" = ${trajectoryId}`;
  await db.$executeRaw`DELETE FROM "step_search_doc" WHERE "trajectory_id" = ${trajectoryId}`;
}

const countRowSchema = z.array(z.object({ trajectories: z.coerce.number(), indexed: z.coerce.number() })).length(1);

/** How many trajectories are not in the search index (imports that bypassed the index hook, or a fresh upgrade). */
export async function searchIndexLag(db: Db): Promise<number> {
  const rows = await db.$queryRaw<unknown[]>`SELECT (SELECT COUNT(*) FROM "Trajectory") AS "trajectories", (SELECT COUNT(*) FROM "step_search_doc") AS "indexed"`;
  const [r] = countRowSchema.parse(rows);
  return Math.max(0, r!.trajectories - r!.indexed);
}

const idRowsSchema = z.array(z.object({ id: z.string() }));

async function indexBatch(db: Db, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const steps = await db.step.findMany({
    where: { trajectoryId: { in: ids } },
    select: { trajectoryId: true, index: true, action: true, observation: true, reasoning: true, message: true },
  });
  const byTrajectory = new Map<string, StepText[]>(ids.map((id) => [id, []]));
  for (const s of steps) byTrajectory.get(s.trajectoryId)?.push(s);
  return db.$transaction((tx) => indexTrajectoriesForSearch(tx, [...byTrajectory].map(([trajectoryId, st]) => ({ trajectoryId, steps: st }))), { timeout: 120_000 });
}

const BATCH = 100;

/** Index up to `limit` trajectories that are missing from the index, oldest first. Returns how many were indexed. */
export async function indexMissingTrajectories(db: Db, limit: number): Promise<number> {
  return (await indexMissingAfter(db, limit, null)).indexed;
}

/**
 * Where a pass over the missing trajectories has got to, in (importedAt, id) order. `importedAt` is the value as the
 * driver returned it (a Date from pg; SQLite's stored text or number), bound back unchanged so it compares like
 * with like.
 */
export interface IndexCursor {
  importedAt: Date | string | number;
  id: string;
}
const cursorRowsSchema = z.array(z.object({ id: z.string(), importedAt: z.union([z.date(), z.string(), z.number()]) }));

/**
 * One step of a pass that indexes every missing trajectory: up to `limit` of them after `after`, oldest first.
 * `next` is null when none are left. A pass must carry the cursor: restarting from the oldest each time re-reads
 * every trajectory indexed so far (at 10^6, 2 s per step of 1,000 — hours for the whole pass).
 */
export async function indexMissingAfter(db: Db, limit: number, after: IndexCursor | null): Promise<{ indexed: number; next: IndexCursor | null }> {
  const past = after ? Prisma.sql`AND (t."importedAt" > ${after.importedAt} OR (t."importedAt" = ${after.importedAt} AND t."id" > ${after.id}))` : Prisma.empty;
  const rows = await db.$queryRaw<unknown[]>`SELECT t."id", t."importedAt" FROM "Trajectory" t WHERE NOT EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = t."id") ${past} ORDER BY t."importedAt", t."id" LIMIT ${limit}`;
  const found = cursorRowsSchema.parse(rows);
  const ids = found.map((r) => r.id);
  let indexed = 0;
  for (let i = 0; i < ids.length; i += BATCH) indexed += await indexBatch(db, ids.slice(i, i + BATCH));
  const last = found.at(-1);
  return { indexed, next: last ? { importedAt: last.importedAt, id: last.id } : null };
}

/**
 * Rebuild the whole search index from the steps table (backfill after an upgrade, or repair). Also purges index
 * entries of deleted trajectories. Safe to run while the app serves: searches see a partial index meanwhile.
 */
export async function reindexSearch(db: Db, opts: { onProgress?: (indexed: number) => void } = {}): Promise<{ trajectories: number }> {
  const pg = dialectOf(db) === "postgresql";
  if (!pg) {
    await db.$transaction([db.$executeRaw`INSERT INTO "step_fts" ("step_fts") VALUES ('delete-all')`, db.$executeRaw`DELETE FROM "step_search_doc"`]);
  } else {
    // Building the GIN index once at the end is several times faster than maintaining it row by row.
    await db.$transaction([db.$executeRaw`TRUNCATE "step_search", "step_search_doc"`, db.$executeRaw`DROP INDEX IF EXISTS "step_search_tsv_idx"`]);
  }
  try {
    return await indexAll(db, opts.onProgress);
  } finally {
    if (pg) {
      await db.$transaction([db.$executeRaw`SET LOCAL maintenance_work_mem = '256MB'`, db.$executeRaw`CREATE INDEX IF NOT EXISTS "step_search_tsv_idx" ON "step_search" USING GIN ("tsv")`], { timeout: 3_600_000 });
    }
  }
}

async function indexAll(db: Db, onProgress?: (indexed: number) => void): Promise<{ trajectories: number }> {
  let after = "";
  let total = 0;
  for (;;) {
    const rows = await db.$queryRaw<unknown[]>`SELECT t."id" FROM "Trajectory" t WHERE t."id" > ${after} ORDER BY t."id" LIMIT ${BATCH * 5}`;
    const ids = idRowsSchema.parse(rows).map((r) => r.id);
    if (!ids.length) break;
    for (let i = 0; i < ids.length; i += BATCH) total += await indexBatch(db, ids.slice(i, i + BATCH));
    after = ids.at(-1)!;
    onProgress?.(total);
  }
  return { trajectories: total };
}
