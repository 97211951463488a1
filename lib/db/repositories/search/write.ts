// Writing the search index, the same way on both databases (the SQL that differs is in sqlite.ts / postgres.ts):
// at import (inside the transaction that writes the steps, or in the settling phase that catches up), on deletion,
// and the full rebuild.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import type { Queryable } from "../../dialect.ts";
import { isLockConflict } from "../../lock-conflict.ts";
import { seqRowSchema, type IndexDoc, type IndexRow } from "./provider.ts";
import { searchProviderOf } from "./providers.ts";
import { docWords, searchRows, STEP_BITS, type StepText } from "./text.ts";

const INSERT_CHUNK = 200;

async function allocateSeqs(db: Queryable, docs: IndexDoc[]): Promise<Map<string, number>> {
  const rows = await searchProviderOf(db).insertDocs(db, docs);
  return new Map(seqRowSchema.parse(rows).map((r) => [r.trajectoryId, r.seq]));
}

async function insertRows(db: Queryable, rows: IndexRow[]): Promise<void> {
  const provider = searchProviderOf(db);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await provider.insertRows(db, rows.slice(i, i + INSERT_CHUNK));
}

/**
 * Index trajectories' steps. Idempotent: a trajectory that is already indexed is skipped. Call inside the
 * transaction that writes the steps, so a trajectory is searchable exactly when it is visible.
 */
export async function indexTrajectoriesForSearch(
  db: Queryable,
  items: { trajectoryId: string; steps: readonly StepText[] }[],
): Promise<number> {
  if (!items.length) return 0;
  // Concurrent indexers write their docs in one order (trajectory id), so two never wait on each other's.
  const sorted = [...items].sort((a, b) => (a.trajectoryId < b.trajectoryId ? -1 : a.trajectoryId > b.trajectoryId ? 1 : 0));
  const prepared = sorted.map(({ trajectoryId, steps }) => ({ trajectoryId, rows: searchRows(steps) }));
  const seqs = await allocateSeqs(
    db,
    prepared.map(({ trajectoryId, rows }) => ({ trajectoryId, words: docWords(rows) })),
  );
  const rows = prepared.flatMap(({ trajectoryId, rows }) => {
    const seq = seqs.get(trajectoryId);
    return seq === undefined ? [] : rows.map((r) => ({ rid: seq * STEP_BITS + r.index, trajectoryId, body: r.body }));
  });
  await insertRows(db, rows);
  return seqs.size;
}

/** Index one trajectory's steps inside a caller's transaction (imports index in a separate phase: see indexMissingTrajectories). */
export async function indexStepsForSearch(tx: Queryable, trajectoryId: string, steps: readonly StepText[]): Promise<void> {
  await indexTrajectoriesForSearch(tx, [{ trajectoryId, steps }]);
}

/**
 * Take a trajectory out of the search index (it becomes "missing" and is re-indexed by the next catch-up).
 * SQLite keeps the orphaned FTS postings until reindexSearch; they are unreachable without their doc row.
 */
export async function removeFromSearchIndex(db: Queryable, trajectoryId: string): Promise<void> {
  await searchProviderOf(db).removeRows(db, trajectoryId);
  await db.$executeRaw`DELETE FROM "step_search_doc" WHERE "trajectory_id" = ${trajectoryId}`;
}

const countRowSchema = z
  .array(z.object({ trajectories: z.coerce.number(), indexed: z.coerce.number(), parts: z.coerce.number() }))
  .length(1);
/** step_search_count rows past which a check folds them into one (a 10^6 build appends ≈ 10^4). */
const FOLD_COUNT_AT = 64;

/**
 * How many trajectories are not in the search index (imports that bypassed the index hook, or a fresh upgrade).
 * Both sides are counts the database keeps (TrajectoryFacetCell's, the browser's totals; step_search_count's, kept
 * by triggers on step_search_doc): counting the two tables took 257 ms at 10^6, on a search every few seconds.
 */
export async function searchIndexLag(db: Db): Promise<number> {
  const rows = await db.$queryRaw<unknown[]>`SELECT (SELECT COALESCE(SUM(c."n"), 0) FROM "TrajectoryFacetCell" c) AS "trajectories",
    (SELECT COALESCE(SUM(k."n"), 0) FROM "step_search_count" k) AS "indexed", (SELECT COUNT(*) FROM "step_search_count") AS "parts"`;
  const [r] = countRowSchema.parse(rows);
  if (r!.parts > FOLD_COUNT_AT) await searchProviderOf(db).foldIndexCount(db);
  return Math.max(0, r!.trajectories - r!.indexed);
}

const idRowsSchema = z.array(z.object({ id: z.string() }));

const BATCH = 100;

type StepsOf = [trajectoryId: string, steps: StepText[]][];

async function readSteps(db: Db, ids: string[]): Promise<StepsOf> {
  const steps = await db.step.findMany({
    where: { trajectoryId: { in: ids } },
    select: { trajectoryId: true, index: true, action: true, observation: true, reasoning: true, message: true },
  });
  const byTrajectory = new Map<string, StepText[]>(ids.map((id) => [id, []]));
  for (const s of steps) byTrajectory.get(s.trajectoryId)?.push(s);
  return [...byTrajectory];
}

const LOCK_TRIES = 3;

function indexInTransaction(db: Db, batch: StepsOf, bounded: boolean): Promise<number> {
  return db.$transaction(
    async (tx) => {
      await searchProviderOf(tx).lockForIndexing(
        tx,
        batch.map(([id]) => id),
        { bounded },
      );
      return indexTrajectoriesForSearch(
        tx,
        batch.map(([trajectoryId, steps]) => ({ trajectoryId, steps })),
      );
    },
    { timeout: 120_000 },
  );
}

/**
 * One batch in one transaction. Its trajectories are locked first (their keys are copied into the docs), and a
 * concurrent import may be updating some of them while holding others the batch has locked: waiting there would
 * close a cycle, and PostgreSQL would abort whichever side it picks, perhaps the import. So the batch gives up after a
 * short wait and tries again; past LOCK_TRIES, each trajectory goes in its own transaction, which may wait, because
 * its one lock is all it holds.
 */
async function writeBatch(db: Db, batch: StepsOf): Promise<number> {
  if (!batch.length) return 0;
  for (let attempt = 1; attempt <= LOCK_TRIES; attempt++) {
    try {
      return await indexInTransaction(db, batch, true);
    } catch (e) {
      if (!isLockConflict(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
  let indexed = 0;
  for (const one of batch) indexed += await indexInTransaction(db, [one], false);
  return indexed;
}

/**
 * Index the trajectories in batches of BATCH, reading the next batch's steps while the current one is tokenized and
 * written, so reading, tokenizing and writing overlap instead of taking turns.
 */
async function indexBatches(db: Db, ids: string[]): Promise<number> {
  let indexed = 0;
  let next = ids.length ? readSteps(db, ids.slice(0, BATCH)) : null;
  for (let i = 0; next; i += BATCH) {
    const current = await next;
    next = i + BATCH < ids.length ? readSteps(db, ids.slice(i + BATCH, i + 2 * BATCH)) : null;
    // A failed write leaves the prefetch unawaited: keep its rejection from going unhandled.
    next?.catch(() => undefined);
    indexed += await writeBatch(db, current);
  }
  return indexed;
}

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
export async function indexMissingAfter(
  db: Db,
  limit: number,
  after: IndexCursor | null,
): Promise<{ indexed: number; next: IndexCursor | null }> {
  const past = after
    ? Prisma.sql`AND (t."importedAt" > ${after.importedAt} OR (t."importedAt" = ${after.importedAt} AND t."id" > ${after.id}))`
    : Prisma.empty;
  const rows = await db.$queryRaw<
    unknown[]
  >`SELECT t."id", t."importedAt" FROM "Trajectory" t WHERE NOT EXISTS (SELECT 1 FROM "step_search_doc" d WHERE d."trajectory_id" = t."id") ${past} ORDER BY t."importedAt", t."id" LIMIT ${limit}`;
  const found = cursorRowsSchema.parse(rows);
  const indexed = await indexBatches(
    db,
    found.map((r) => r.id),
  );
  const last = found.at(-1);
  return { indexed, next: last ? { importedAt: last.importedAt, id: last.id } : null };
}

/**
 * Index every trajectory missing from the index, in steps of `step` that carry their cursor (see indexMissingAfter).
 * `onStep` sees the running total after each step; `signal` stops the pass between steps. Returns how many were indexed.
 */
export async function indexAllMissing(
  db: Db,
  opts: { step?: number; onStep?: (indexed: number) => void; signal?: AbortSignal } = {},
): Promise<number> {
  let indexed = 0;
  let cursor: IndexCursor | null = null;
  do {
    opts.signal?.throwIfAborted();
    const step = await indexMissingAfter(db, opts.step ?? 1000, cursor);
    indexed += step.indexed;
    cursor = step.next;
    opts.onStep?.(indexed);
  } while (cursor);
  return indexed;
}

/**
 * Rebuild the whole search index from the steps table (backfill after an upgrade, or repair). Also purges index
 * entries of deleted trajectories. Safe to run while the app serves: searches see a partial index meanwhile.
 * `lanes` pipelines run at once (default: the provider's rebuildLanes), each taking `page` trajectories at a time.
 */
export async function reindexSearch(
  db: Db,
  opts: { onProgress?: (indexed: number) => void; lanes?: number; page?: number } = {},
): Promise<{ trajectories: number }> {
  const provider = searchProviderOf(db);
  await provider.clearIndex(db);
  try {
    return await indexAll(db, { lanes: Math.max(1, opts.lanes ?? provider.rebuildLanes), page: opts.page ?? BATCH * 5 }, opts.onProgress);
  } finally {
    await provider.afterRebuild(db);
  }
}

/**
 * Every trajectory, in pages of ids handed out one at a time (each page starts after the last id handed out, so no
 * two lanes share a trajectory), each lane reading, tokenizing and writing its own pages. One lane kept one database
 * backend busy reading and converting step text while the rest of the machine idled (10^6 on PostgreSQL: 87 % of a
 * core, Node 13 %). After a lane fails, the others stop at their next page, and all have stopped before the caller
 * goes on (a rebuild's afterRebuild must not index rows still being written).
 */
async function indexAll(
  db: Db,
  { lanes, page: size }: { lanes: number; page: number },
  onProgress?: (indexed: number) => void,
): Promise<{ trajectories: number }> {
  let after = "";
  let total = 0;
  let failed = false;
  let paging: Promise<unknown> = Promise.resolve();
  const nextPage = (): Promise<string[]> => {
    const page = paging.then(async () => {
      if (failed) return [];
      const rows = await db.$queryRaw<unknown[]>`SELECT t."id" FROM "Trajectory" t WHERE t."id" > ${after} ORDER BY t."id" LIMIT ${size}`;
      const ids = idRowsSchema.parse(rows).map((r) => r.id);
      if (ids.length) after = ids.at(-1)!;
      return ids;
    });
    paging = page.catch(() => undefined);
    return page;
  };
  const lane = async () => {
    try {
      for (let ids = await nextPage(); ids.length; ids = await nextPage()) {
        // Not `total += await …`: that reads total before the await, and another lane's addition would be lost.
        const indexed = await indexBatches(db, ids);
        total += indexed;
        onProgress?.(total);
      }
    } catch (e) {
      failed = true;
      throw e;
    }
  };
  const results = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const failure = results.find((r) => r.status === "rejected");
  if (failure) throw failure.reason;
  return { trajectories: total };
}
