import { sortableId } from "./ids.ts";
import Database from "better-sqlite3";
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
  TRAJECTORY_COLUMNS,
  type CellCodec,
  type PreparedTrajectory,
  addDetectedErrors,
} from "./rows.ts";
import { rollupRows, upsertRollupSql, upsertValueRollupSql, valueRollupRows } from "./mode-rollup.ts";
import { conflictMessage, errorMessage, type BulkWriter, type WriteOutcome } from "./writer-contract.ts";
import { REFRESH_COUNTS_SQL, REFRESH_FORK_POINTS_SQL, type LinkRequest } from "./fork-links.ts";

// Prisma's SQLite adapter stores DateTime as ISO-8601 text with an explicit offset and booleans as 0/1.
export const sqliteCodec: CellCodec = { bool: (b) => (b ? 1 : 0), date: (d) => d.toISOString().replace("Z", "+00:00") };
const codec = sqliteCodec;
const sqliteDay = (isoDay: string) => `${isoDay}T00:00:00.000+00:00`;

const insertSql = (table: string, cols: readonly string[]) =>
  `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`;

const BUSY_SPIN_MS = 50;
const BUSY_GIVE_UP_MS = 30_000;

function isBusy(e: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test((e as { code?: string })?.code ?? "");
}

/** Runs `fn` (which takes the write lock synchronously), retrying while another connection holds it, without blocking. */
async function withWriteLock<T>(fn: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_GIVE_UP_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

export class SqliteBulkWriter implements BulkWriter {
  readonly codec = sqliteCodec;
  private readonly db: Database.Database;
  private readonly stmt;
  /** Task/run ids known to be committed (never filled from a transaction that may still roll back). */
  private readonly tasks = new Map<string, string>();
  private readonly runs = new Map<string, string>();

  constructor(file: string) {
    // A short busy wait: better-sqlite3 waits synchronously, and in the server the connection holding the lock may be a
    // Prisma one on this very event loop, which cannot finish while we spin. Longer waits are async (withWriteLock).
    this.db = new Database(file, { timeout: BUSY_SPIN_MS });
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    // References are consistent by construction (task, run and trajectory rows are written first in the same
    // transaction), so per-row foreign-key lookups are skipped on this bulk connection.
    this.db.pragma("foreign_keys = OFF");
    // A larger page cache keeps the growing index B-trees in memory during bulk loads (32 MB, bounded).
    this.db.pragma("cache_size = -32768");
    this.db.pragma("temp_store = MEMORY");
    // Checkpoint every 64 MB of WAL instead of every 4 MB: the same pages are copied, with 16× fewer fsyncs (≈10 % of
    // bulk-load time). synchronous stays NORMAL, so a crash or power loss can lose the last commits but not corrupt.
    this.db.pragma("wal_autocheckpoint = 16384");
    const d = this.db;
    this.stmt = {
      dup: d.prepare(
        `SELECT "id", "contentHash" FROM "Trajectory" WHERE "contentHash" = ? OR ("externalId" IS NOT NULL AND "externalId" = ?) LIMIT 1`,
      ),
      findTask: d.prepare(`SELECT "id" FROM "Task" WHERE "benchmark" = ? AND "externalId" = ?`),
      insTask: d.prepare(
        `INSERT INTO "Task" ("id", "benchmark", "externalId", "name", "instruction", "category", "difficulty", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      findRun: d.prepare(`SELECT "id" FROM "Run" WHERE "name" = ?`),
      insRun: d.prepare(
        `INSERT INTO "Run" ("id", "name", "model", "agent", "checkpoint", "trainingMethod", "source", "importedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      traj: d.prepare(insertSql("Trajectory", TRAJECTORY_COLUMNS)),
      step: d.prepare(insertSql("Step", STEP_COLUMNS)),
      error: d.prepare(insertSql("DetectedError", ERROR_COLUMNS)),
      signature: d.prepare(insertSql("FailureSignature", SIGNATURE_COLUMNS)),
      rollup: d.prepare(upsertRollupSql("sqlite", 1)),
      valueRollup: d.prepare(upsertValueRollupSql("sqlite", 1)),
      rec: d.prepare(insertSql("Recording", RECORDING_COLUMNS)),
      chunk: d.prepare(insertSql("RecordingChunk", CHUNK_COLUMNS)),
    };
  }

  private taskId(p: PreparedTrajectory, fresh: Map<string, string>): string {
    const key = `${p.task.benchmark}\u0000${p.task.externalId}`;
    const known = this.tasks.get(key) ?? fresh.get(key);
    if (known) return known;
    const row = this.stmt.findTask.get(p.task.benchmark, p.task.externalId) as { id: string } | undefined;
    const id = row?.id ?? sortableId();
    if (!row)
      this.stmt.insTask.run(
        id,
        p.task.benchmark,
        p.task.externalId,
        p.task.name,
        p.task.instruction,
        p.task.category,
        p.task.difficulty,
        codec.date(new Date()),
      );
    fresh.set(key, id);
    return id;
  }

  private runId(p: PreparedTrajectory, fresh: Map<string, string>): string {
    const known = this.runs.get(p.run.name) ?? fresh.get(`run\u0000${p.run.name}`);
    if (known) return known;
    const row = this.stmt.findRun.get(p.run.name) as { id: string } | undefined;
    const id = row?.id ?? sortableId();
    if (!row)
      this.stmt.insRun.run(
        id,
        p.run.name,
        p.run.model,
        p.run.agent,
        p.run.checkpoint,
        p.run.trainingMethod,
        p.run.source,
        codec.date(new Date()),
      );
    fresh.set(`run\u0000${p.run.name}`, id);
    return id;
  }

  private writeOne(p: PreparedTrajectory, fresh: Map<string, string>): WriteOutcome {
    const dup = this.stmt.dup.get(p.contentHash, p.externalId) as { id: string; contentHash: string } | undefined;
    if (dup && dup.contentHash !== p.contentHash) return { status: "failed", error: conflictMessage(p.externalId) };
    if (dup) return { status: "duplicate", id: dup.id };
    const row = p.row.slice();
    row[TASK_ID_AT] = this.taskId(p, fresh);
    row[RUN_ID_AT] = this.runId(p, fresh);
    this.stmt.traj.run(row);
    for (const s of p.steps) this.stmt.step.run(s);
    for (const e of p.errors) this.stmt.error.run(e);
    const signatures = p.signatures.map((sig) => {
      const r = sig.slice();
      r[SIGNATURE_RUN_AT] = row[RUN_ID_AT]!;
      r[SIGNATURE_TASK_AT] = row[TASK_ID_AT]!;
      this.stmt.signature.run(r);
      return r;
    });
    for (const r of rollupRows(signatures, sqliteDay)) this.stmt.rollup.run(r);
    for (const r of valueRollupRows(signatures, sqliteDay)) this.stmt.valueRollup.run(r);
    if (p.recording) {
      this.stmt.rec.run(p.recording.row);
      for (const c of p.recording.chunks) this.stmt.chunk.run(c);
    }
    return { status: "imported", id: p.id };
  }

  private commitFresh(fresh: Map<string, string>): void {
    for (const [k, v] of fresh) {
      if (k.startsWith("run\u0000")) this.runs.set(k.slice(4), v);
      else this.tasks.set(k, v);
    }
  }

  async write(batch: PreparedTrajectory[]): Promise<WriteOutcome[]> {
    return withWriteLock(() => this.writeSync(batch));
  }

  writeSync(batch: PreparedTrajectory[]): WriteOutcome[] {
    // On the writer thread this is where detection overlaps with parsing the next batch.
    for (const p of batch) addDetectedErrors(p, codec);
    const fresh = new Map<string, string>();
    try {
      // IMMEDIATE: take the write lock before the duplicate check reads. A deferred transaction that reads first and then
      // writes fails at once with SQLITE_BUSY when another request's writer committed in between (WAL snapshot).
      const out = this.db.transaction(() => batch.map((p) => this.writeOne(p, fresh))).immediate();
      this.commitFresh(fresh);
      return out;
    } catch (e) {
      if (isBusy(e)) throw e; // nothing was written: the caller waits and retries the whole batch
      // Isolate the failure: one transaction per trajectory.
      return batch.map((p) => {
        const one = new Map<string, string>();
        try {
          const r = this.db.transaction(() => this.writeOne(p, one)).immediate();
          this.commitFresh(one);
          return r;
        } catch (e) {
          if (isBusy(e)) throw e;
          return { status: "failed", error: errorMessage(e) };
        }
      });
    }
  }

  async linkForks(links: LinkRequest[]): Promise<LinkRequest[]> {
    const d = this.db;
    const byExternal = d.prepare(`SELECT "id" FROM "Trajectory" WHERE "externalId" = ?`);
    const findFork = d.prepare(`SELECT "id" FROM "ForkPoint" WHERE "trajectoryId" = ? AND "stepIndex" = ?`);
    const insFork = d.prepare(
      `INSERT INTO "ForkPoint" ("id", "trajectoryId", "stepIndex", "errorCategory", "origin", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const nextIndex = d.prepare(`SELECT COALESCE(MAX("attemptIndex") + 1, 0) AS n FROM "Trajectory" WHERE "forkPointId" = ?`);
    const update = d.prepare(
      `UPDATE "Trajectory" SET "parentId" = ?, "forkPointId" = ?, "forkStepIndex" = ?, "attemptIndex" = ?, "forkInferred" = ?, "pendingParentRef" = NULL WHERE "id" = ? AND "id" <> ?`,
    );
    const refresh = d.prepare(REFRESH_COUNTS_SQL);
    const refreshForks = d.prepare(REFRESH_FORK_POINTS_SQL);
    const unresolved: LinkRequest[] = [];
    await withWriteLock(() => {
      unresolved.length = 0;
      d.transaction(() => {
        const parents = new Set<string>();
        for (const l of links) {
          const parentId = "id" in l.parent ? l.parent.id : (byExternal.get(l.parent.externalId) as { id: string } | undefined)?.id;
          if (!parentId) {
            unresolved.push(l);
            continue;
          }
          let fork = findFork.get(parentId, l.stepIndex) as { id: string } | undefined;
          if (!fork) {
            fork = { id: sortableId() };
            insFork.run(
              fork.id,
              parentId,
              l.stepIndex,
              l.errorCategory ?? null,
              l.inferred ? "inferred" : "explicit",
              codec.date(new Date()),
            );
          }
          const index = l.attemptIndex ?? (nextIndex.get(fork.id) as { n: number }).n;
          update.run(parentId, fork.id, l.stepIndex, index, codec.bool(l.inferred), l.attemptId, parentId);
          parents.add(parentId);
        }
        for (const p of parents) {
          refresh.run(p);
          refreshForks.run(p);
        }
      }).immediate();
    });
    return unresolved;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
