// Querying the search index, the same way on both databases (the SQL that differs is in sqlite.ts / postgres.ts).
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { Dialect, Queryable } from "../../dialect.ts";
import { postgresSearch } from "./postgres.ts";
import { totalSchema, type SearchForm } from "./provider.ts";
import { budgetedReader, isStatementTimeout } from "../../statement-timeout.ts";
import { searchProviderOf } from "./providers.ts";
import { sqliteSearch } from "./sqlite.ts";
import { STEP_BITS, type ParsedSearch, type StepText } from "./text.ts";

/**
 * SQL predicate on a trajectory id (by default alias `t`'s; a facet over annotations passes their trajectoryId, so it
 * needs no join to Trajectory): it has at least one step matching the query.
 */
export function searchFilterSql(dialect: Dialect, s: ParsedSearch, form: SearchForm = "hits", id = Prisma.raw('t."id"')): Prisma.Sql {
  return (dialect === "sqlite" ? sqliteSearch : postgresSearch).filterSql(s, form, id);
}

/** The exact check of a "candidates" search on the id of alias `t` or `c`; null when the candidates are exact. */
export function searchVerifySql(dialect: Dialect, s: ParsedSearch, alias: "t" | "c"): Prisma.Sql | null {
  return (dialect === "sqlite" ? sqliteSearch : postgresSearch).verifySql(s, Prisma.raw(`${alias}."id"`));
}

/** A predicate on step_search_doc alias `alias` whose rows carry facet keys (see SearchProvider.keyedMatchSql). */
export function searchKeyedMatchSql(dialect: Dialect, s: ParsedSearch, alias: string): Prisma.Sql | null {
  return (dialect === "sqlite" ? sqliteSearch : postgresSearch).keyedMatchSql(s, alias);
}

/** A predicate on step_search_doc alias `alias` for any query, where the rows carry facet keys (SearchProvider.matchRowsSql). */
export function searchMatchRowsSql(dialect: Dialect, s: ParsedSearch, alias: string): Prisma.Sql | null {
  return (dialect === "sqlite" ? sqliteSearch : postgresSearch).matchRowsSql(s, alias);
}

/** At most how many trajectories hold all of a query's words (see SearchProvider.candidateEstimate). */
export function searchCandidateEstimate(db: Db, s: ParsedSearch): Promise<number> {
  return searchProviderOf(db).candidateEstimate(db, s);
}

/**
 * How many steps match the query, counted up to `limit`; `limit` when counting outlasts `budgetMs` (PostgreSQL's
 * statement_timeout: words that share millions of steps without ever standing together are checked step by step).
 */
export async function searchStepMatchesUpTo(db: Db, s: ParsedSearch, limit: number, budgetMs: number | null): Promise<number> {
  try {
    const rows = await budgetedReader(db, budgetMs)(searchProviderOf(db).stepMatchesUpToSql(s, limit));
    return totalSchema.parse(rows)[0]!.n ?? 0;
  } catch (e) {
    if (isStatementTimeout(e)) return limit;
    throw e;
  }
}

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
  const { perWord, trajectories } = await searchProviderOf(db).wordCounts(db, words);
  const counts = new Map(perWord.map((r) => [r.w, r.n ?? 0]));
  const least = Math.min(...words.map((w) => counts.get(w) ?? 0));
  return trajectories > 0 && least >= trajectories;
}

const hitRowSchema = z.object({ trajectoryId: z.string(), rid: z.coerce.number().int().nullable() });

/** The first matching step of each given trajectory (trajectories without a match are left out). */
export async function findFirstMatchingSteps(db: Queryable, trajectoryIds: string[], s: ParsedSearch): Promise<Map<string, number>> {
  if (!trajectoryIds.length) return new Map();
  const rows = await searchProviderOf(db).firstMatchRows(db, Prisma.join(trajectoryIds), s);
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
  const rows = await searchProviderOf(db).stepHitRows(db, s, opts);
  return z
    .array(hitRowSchema.extend({ rid: z.coerce.number().int() }))
    .parse(rows)
    .map((r) => ({ rid: r.rid, trajectoryId: r.trajectoryId, stepIndex: r.rid % STEP_BITS }));
}

/** The searchable fields of the given steps. */
export async function findStepTexts(
  db: Queryable,
  refs: { trajectoryId: string; stepIndex: number }[],
): Promise<(StepText & { trajectoryId: string; index: number })[]> {
  if (!refs.length) return [];
  return db.step.findMany({
    where: { OR: refs.map((r) => ({ trajectoryId: r.trajectoryId, index: r.stepIndex })) },
    select: { trajectoryId: true, index: true, action: true, observation: true, reasoning: true, message: true },
  });
}
