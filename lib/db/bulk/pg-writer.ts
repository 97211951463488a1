import { sortableId } from "./ids.ts";
import pg from "pg";
import {
  CHUNK_COLUMNS,
  ERROR_COLUMNS,
  RECORDING_COLUMNS,
  RUN_ID_AT,
  SIGNATURE_COLUMNS,
  SIGNATURE_RUN_AT,
  SIGNATURE_TASK_AT,
  STEP_COLUMNS,
  TASK_ID_AT,
  TRAJECTORY_AT,
  TRAJECTORY_COLUMNS,
  type Cell,
  type CellCodec,
  type PreparedTrajectory,
  addDetectedErrors,
} from "./rows.ts";
import { rollupRows, upsertRollupSql, upsertValueRollupSql, valueRollupRows, ROLLUP_COLUMNS, VALUE_ROLLUP_COLUMNS } from "./mode-rollup.ts";
import { copyRows } from "./pg-copy.ts";
import { isLockConflict } from "../lock-conflict.ts";
import { conflictMessage, errorMessage, type BulkWriter, type WriteOutcome } from "./writer-contract.ts";
import { REFRESH_COUNTS_SQL, REFRESH_FORK_POINTS_SQL, type LinkRequest } from "./fork-links.ts";

// Prisma maps DateTime to timestamp(3) without time zone holding UTC.
export const pgCodec: CellCodec = { bool: (b) => b, date: (d) => d.toISOString().replace("T", " ").replace("Z", "") };

/** The batch's signatures added to the failure-mode rollups, in key order (so concurrent imports lock rows in one order). */
async function upsertRollup(client: pg.PoolClient, signatureRows: Cell[][]): Promise<void> {
  const day = (isoDay: string) => `${isoDay} 00:00:00`;
  const tables: [Cell[][], number, (n: number) => string][] = [
    [rollupRows(signatureRows, day), ROLLUP_COLUMNS.length, (n) => upsertRollupSql("postgresql", n)],
    [valueRollupRows(signatureRows, day), VALUE_ROLLUP_COLUMNS.length, (n) => upsertValueRollupSql("postgresql", n)],
  ];
  for (const [rows, width, statement] of tables) {
    const per = Math.floor(30_000 / width);
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per);
      await client.query(statement(chunk.length), chunk.flat());
    }
  }
}

/**
 * Settings of the bulk connections only (the app's own connections keep the server defaults):
 * - terminal output is compressed with lz4 instead of pglz when the server has it — the server's compression was the
 *   largest part of its work per imported step, and lz4 reads back faster too;
 * - commits do not wait for the WAL flush: a server crash can lose the last batches of an import (reported as
 *   imported), never leave half a batch or a corrupt table — the same trade as the SQLite writer's synchronous=NORMAL;
 * - no JIT compilation, as on the app's connections (lib/db/client.ts): the fork-link UPDATEs and count refreshes are
 *   costed high enough to be compiled, 35-80 ms of LLVM each for statements that run in milliseconds (3 % of the
 *   server's time during an import, in a perf profile).
 */
const SESSION_SQL = `SELECT set_config('synchronous_commit', 'off', false), set_config('jit', 'off', false),
  (SELECT set_config('default_toast_compression', 'lz4', false) FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))`;

const LINKED_COLUMNS = [...TRAJECTORY_COLUMNS, "parentId", "forkPointId", "forkStepIndex", "attemptIndex", "forkInferred"] as const;

const forkKey = (parentId: string, stepIndex: number) => `${parentId}\u0000${stepIndex}`;

/**
 * The fork points at these (parent, step) places, created where missing (the first request for a place sets its
 * category and origin): each one's id and the next free attempt index there, by forkKey.
 */
async function upsertForkPoints(
  client: pg.PoolClient,
  wanted: { parentId: string; stepIndex: number; errorCategory: string | null; origin: "explicit" | "inferred" }[],
): Promise<Map<string, { id: string; next: number }>> {
  const keys = [...new Map(wanted.map((w) => [forkKey(w.parentId, w.stepIndex), w])).values()];
  await client.query(
    `INSERT INTO "ForkPoint" ("id", "trajectoryId", "stepIndex", "errorCategory", "origin") SELECT * FROM unnest($1::text[], $2::text[], $3::int4[], $4::text[], $5::text[]) ON CONFLICT ("trajectoryId", "stepIndex") DO NOTHING`,
    [
      keys.map(() => sortableId()),
      keys.map((k) => k.parentId),
      keys.map((k) => k.stepIndex),
      keys.map((k) => k.errorCategory),
      keys.map((k) => k.origin),
    ],
  );
  const forks = await client.query<{ id: string; trajectoryId: string; stepIndex: number; next: number }>(
    `SELECT f."id", f."trajectoryId", f."stepIndex", COALESCE((SELECT MAX(t."attemptIndex") + 1 FROM "Trajectory" t WHERE t."forkPointId" = f."id"), 0)::int AS next
     FROM "ForkPoint" f WHERE (f."trajectoryId", f."stepIndex") IN (SELECT * FROM unnest($1::text[], $2::int4[]))`,
    [keys.map((k) => k.parentId), keys.map((k) => k.stepIndex)],
  );
  return new Map(forks.rows.map((f) => [forkKey(f.trajectoryId, f.stepIndex), f]));
}

/** The parents' fork-point and attempt counts and recovery rate, and their fork points' figures, recomputed. */
async function refreshParentCounts(client: pg.PoolClient, parentIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(parentIds)];
  await client.query(REFRESH_COUNTS_SQL.replace(`WHERE "id" = ?`, `WHERE "id" = ANY($1::text[])`), [ids]);
  await client.query(REFRESH_FORK_POINTS_SQL.replace(`WHERE "trajectoryId" = ?`, `WHERE "trajectoryId" = ANY($1::text[])`), [ids]);
}

function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === "23505";
}

/**
 * A deadlock (40P01) between two writers' batches (isLockConflict): PostgreSQL aborts one of them whole, and it can
 * simply run again. Concurrent imports meet on shared rows — facet cells, failure-mode rollups, tasks and runs — each
 * written in key order within a statement, but a batch's statements (its trajectories, then their parents' counts)
 * cannot be ordered against another batch's.
 */
const DEADLOCK_RETRIES = 3;

export class PgBulkWriter implements BulkWriter {
  readonly codec = pgCodec;
  private readonly pool: pg.Pool;
  private readonly tasks = new Map<string, string>();
  private readonly runs = new Map<string, string>();

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on("connect", (client) => void client.query(SESSION_SQL).catch(() => undefined));
  }

  private async resolveRefs(
    client: pg.PoolClient,
    batch: PreparedTrajectory[],
  ): Promise<{ tasks: Map<string, string>; runs: Map<string, string> }> {
    const tasks = new Map<string, PreparedTrajectory["task"]>();
    const runs = new Map<string, PreparedTrajectory["run"]>();
    for (const p of batch) {
      const k = `${p.task.benchmark}\u0000${p.task.externalId}`;
      if (!this.tasks.has(k)) tasks.set(k, p.task);
      if (!this.runs.has(p.run.name)) runs.set(p.run.name, p.run);
    }
    const freshTasks = new Map<string, string>();
    const freshRuns = new Map<string, string>();
    if (tasks.size) {
      const list = [...tasks.values()];
      await client.query(
        `INSERT INTO "Task" ("id", "benchmark", "externalId", "name", "instruction", "category", "difficulty") SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) ON CONFLICT ("benchmark", "externalId") DO NOTHING`,
        [
          list.map(() => sortableId()),
          list.map((t) => t.benchmark),
          list.map((t) => t.externalId),
          list.map((t) => t.name),
          list.map((t) => t.instruction),
          list.map((t) => t.category),
          list.map((t) => t.difficulty),
        ],
      );
      const rows = await client.query<{ id: string; benchmark: string; externalId: string }>(
        `SELECT "id", "benchmark", "externalId" FROM "Task" WHERE ("benchmark", "externalId") IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [list.map((t) => t.benchmark), list.map((t) => t.externalId)],
      );
      for (const r of rows.rows) freshTasks.set(`${r.benchmark}\u0000${r.externalId}`, r.id);
    }
    if (runs.size) {
      const list = [...runs.values()];
      await client.query(
        `INSERT INTO "Run" ("id", "name", "model", "agent", "checkpoint", "trainingMethod", "source") SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) ON CONFLICT ("name") DO NOTHING`,
        [
          list.map(() => sortableId()),
          list.map((r) => r.name),
          list.map((r) => r.model),
          list.map((r) => r.agent),
          list.map((r) => r.checkpoint),
          list.map((r) => r.trainingMethod),
          list.map((r) => r.source),
        ],
      );
      const rows = await client.query<{ id: string; name: string }>(`SELECT "id", "name" FROM "Run" WHERE "name" = ANY($1::text[])`, [
        list.map((r) => r.name),
      ]);
      for (const r of rows.rows) freshRuns.set(r.name, r.id);
    }
    return { tasks: freshTasks, runs: freshRuns };
  }

  /** Writes a batch in one transaction; throws on any failure (the caller isolates). */
  private async writeBatch(client: pg.PoolClient, batch: PreparedTrajectory[]): Promise<WriteOutcome[]> {
    await client.query("BEGIN");
    try {
      const existing = await client.query<{ id: string; contentHash: string; externalId: string | null }>(
        `SELECT "id", "contentHash", "externalId" FROM "Trajectory" WHERE "contentHash" = ANY($1::text[]) OR "externalId" = ANY($2::text[])`,
        [
          batch.map((p) => p.contentHash),
          batch.flatMap((p) => [...(p.externalId ? [p.externalId] : []), ...(p.fork ? [p.fork.parentRef] : [])]),
        ],
      );
      const seen = new Map<string, string>();
      const hashOfExternal = new Map<string, string>();
      for (const r of existing.rows) {
        seen.set(`h:${r.contentHash}`, r.id);
        if (r.externalId) {
          seen.set(`x:${r.externalId}`, r.id);
          hashOfExternal.set(r.externalId, r.contentHash);
        }
      }
      const refs = await this.resolveRefs(client, batch);
      const outcomes: WriteOutcome[] = [];
      const linkedNow = new Set<string>();
      const trajRows: Cell[][] = [],
        attemptRows: { row: Cell[]; parentId: string; fork: NonNullable<PreparedTrajectory["fork"]> }[] = [],
        stepRows: Cell[][] = [],
        errorRows: Cell[][] = [],
        signatureRows: Cell[][] = [],
        recRows: Cell[][] = [],
        chunkRows: Cell[][] = [];
      for (const p of batch) {
        const dup = seen.get(`h:${p.contentHash}`) ?? (p.externalId ? seen.get(`x:${p.externalId}`) : undefined);
        const knownHash = p.externalId ? hashOfExternal.get(p.externalId) : undefined;
        if (knownHash !== undefined && knownHash !== p.contentHash) {
          outcomes.push({ status: "failed", error: conflictMessage(p.externalId) });
          continue;
        }
        if (dup) {
          outcomes.push({ status: "duplicate", id: dup });
          continue;
        }
        seen.set(`h:${p.contentHash}`, p.id);
        if (p.externalId) {
          seen.set(`x:${p.externalId}`, p.id);
          hashOfExternal.set(p.externalId, p.contentHash);
        }
        const taskKey = `${p.task.benchmark}\u0000${p.task.externalId}`;
        const row = p.row.slice();
        row[TASK_ID_AT] = this.tasks.get(taskKey) ?? refs.tasks.get(taskKey)!;
        row[RUN_ID_AT] = this.runs.get(p.run.name) ?? refs.runs.get(p.run.name)!;
        // An attempt whose parent is already written (earlier batch or import) or is written before it in this
        // batch is linked as it is written; others wait for the settle phase (lib/services/import-integrity).
        const parentId = p.fork && p.fork.attemptIndex !== null ? seen.get(`x:${p.fork.parentRef}`) : undefined;
        if (p.fork && parentId && parentId !== p.id && !linkedNow.has(parentId)) {
          attemptRows.push({ row, parentId, fork: p.fork });
          linkedNow.add(p.id);
        } else trajRows.push(row);
        for (const s of p.steps) stepRows.push(s);
        for (const e of p.errors) errorRows.push(e);
        for (const sig of p.signatures) {
          const r = sig.slice();
          r[SIGNATURE_RUN_AT] = row[RUN_ID_AT]!;
          r[SIGNATURE_TASK_AT] = row[TASK_ID_AT]!;
          signatureRows.push(r);
        }
        if (p.recording) {
          recRows.push(p.recording.row);
          for (const c of p.recording.chunks) chunkRows.push(c);
        }
        outcomes.push({ status: "imported", id: p.id });
      }
      const inserts: [string, readonly string[], Cell[][]][] = [
        ["Step", STEP_COLUMNS, stepRows],
        ["DetectedError", ERROR_COLUMNS, errorRows],
        ["FailureSignature", SIGNATURE_COLUMNS, signatureRows],
        ["Recording", RECORDING_COLUMNS, recRows],
        ["RecordingChunk", CHUNK_COLUMNS, chunkRows],
      ];
      await copyRows(client, "Trajectory", TRAJECTORY_COLUMNS, trajRows);
      if (attemptRows.length) await this.copyLinkedAttempts(client, attemptRows);
      for (const [table, cols, rows] of inserts) await copyRows(client, table, cols, rows);
      await upsertRollup(client, signatureRows);
      // After the signatures: a parent written in this batch has its fork points' failure mode from them.
      if (attemptRows.length)
        await refreshParentCounts(
          client,
          attemptRows.map((a) => a.parentId),
        );
      await client.query("COMMIT");
      for (const [k, v] of refs.tasks) this.tasks.set(k, v);
      for (const [k, v] of refs.runs) this.runs.set(k, v);
      return outcomes;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  /**
   * Attempts whose parent exists, written already linked: their fork points first, then the rows with parentId,
   * forkPointId, forkStepIndex and attemptIndex set, then the parents' counts. On PostgreSQL, linking them after the
   * write (linkForks) rewrites every attempt row — a new row version and an entry in each of Trajectory's ~20
   * indexes — which was ~7 % of a 20,000-trajectory import. Only attempts with a stated attemptIndex are linked
   * here, so the outcome is the one linkForks gives (it numbers the others in write order at the end).
   */
  private async copyLinkedAttempts(
    client: pg.PoolClient,
    attempts: { row: Cell[]; parentId: string; fork: NonNullable<PreparedTrajectory["fork"]> }[],
  ): Promise<void> {
    const forkOf = await upsertForkPoints(
      client,
      attempts.map(({ parentId, fork }) => ({
        parentId,
        stepIndex: fork.stepIndex,
        errorCategory: fork.errorCategory,
        origin: "explicit",
      })),
    );
    const rows = attempts.map(({ row, parentId, fork }) => {
      const linked = row.slice();
      linked[TRAJECTORY_AT.pendingParentRef] = null;
      return [...linked, parentId, forkOf.get(forkKey(parentId, fork.stepIndex))!.id, fork.stepIndex, fork.attemptIndex, false];
    });
    await copyRows(client, "Trajectory", LINKED_COLUMNS, rows);
  }

  /** Batches are written one after another, in order, even when the caller sends the next before one finishes. */
  private queue: Promise<unknown> = Promise.resolve();

  write(batch: PreparedTrajectory[]): Promise<WriteOutcome[]> {
    for (const p of batch) addDetectedErrors(p, pgCodec);
    const next = this.queue.then(() => this.writeNow(batch));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async writeNow(batch: PreparedTrajectory[]): Promise<WriteOutcome[]> {
    const client = await this.pool.connect();
    try {
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.writeBatch(client, batch);
          } catch (e) {
            if (!isLockConflict(e) || attempt > DEADLOCK_RETRIES) throw e;
          }
        }
      } catch {
        const out: WriteOutcome[] = [];
        for (const p of batch) out.push(await this.writeOne(client, p));
        return out;
      }
    } finally {
      client.release();
    }
  }

  /**
   * One trajectory in its own transaction. A concurrent request importing the same content can commit between our
   * duplicate check and our insert; the insert then waits for it and fails on the unique index (23505). Running the
   * transaction again sees the committed row and answers `duplicate` (or the id conflict), as SQLite's serialized
   * writes do, instead of surfacing the index violation. A deadlock is run again too.
   */
  private async writeOne(client: pg.PoolClient, p: PreparedTrajectory): Promise<WriteOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.writeBatch(client, [p]))[0]!;
      } catch (e) {
        if ((isUniqueViolation(e) || isLockConflict(e)) && attempt <= DEADLOCK_RETRIES) continue;
        return { status: "failed", error: errorMessage(e) };
      }
    }
  }

  async linkForks(links: LinkRequest[]): Promise<LinkRequest[]> {
    if (!links.length) return [];
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const externals = [...new Set(links.flatMap((l) => ("externalId" in l.parent ? [l.parent.externalId] : [])))];
      const found = externals.length
        ? await client.query<{ id: string; externalId: string }>(
            `SELECT "id", "externalId" FROM "Trajectory" WHERE "externalId" = ANY($1::text[])`,
            [externals],
          )
        : { rows: [] };
      const idOf = new Map(found.rows.map((r) => [r.externalId, r.id]));
      const unresolved: LinkRequest[] = [];
      const resolved: (LinkRequest & { parentId: string })[] = [];
      for (const l of links) {
        const parentId = "id" in l.parent ? l.parent.id : idOf.get(l.parent.externalId);
        if (parentId && parentId !== l.attemptId) resolved.push({ ...l, parentId });
        else unresolved.push(l);
      }
      if (resolved.length) {
        const forkOf = await upsertForkPoints(
          client,
          resolved.map((l) => ({
            parentId: l.parentId,
            stepIndex: l.stepIndex,
            errorCategory: l.errorCategory ?? null,
            origin: l.inferred ? "inferred" : "explicit",
          })),
        );
        const rows = resolved.map((l) => {
          const f = forkOf.get(forkKey(l.parentId, l.stepIndex))!;
          return [l.attemptId, l.parentId, f.id, l.stepIndex, l.attemptIndex ?? f.next++, l.inferred] as const;
        });
        await client.query(
          `UPDATE "Trajectory" t SET "parentId" = u.p, "forkPointId" = u.f, "forkStepIndex" = u.s, "attemptIndex" = u.a, "forkInferred" = u.i, "pendingParentRef" = NULL
           FROM unnest($1::text[], $2::text[], $3::text[], $4::int4[], $5::int4[], $6::bool[]) AS u(id, p, f, s, a, i) WHERE t."id" = u.id`,
          [
            rows.map((r) => r[0]),
            rows.map((r) => r[1]),
            rows.map((r) => r[2]),
            rows.map((r) => r[3]),
            rows.map((r) => r[4]),
            rows.map((r) => r[5]),
          ],
        );
        await refreshParentCounts(
          client,
          resolved.map((l) => l.parentId),
        );
      }
      await client.query("COMMIT");
      return unresolved;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
