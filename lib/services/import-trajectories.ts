// Use case: write a stream of parsed trajectories (or per-record parse errors) into the database and report what
// happened. Trajectories are written in batches (one transaction each; a failing trajectory is retried and rolled
// back alone), so nothing half-imported is ever visible and a killed import can simply be re-run.
import { authorize, type ServiceContext } from "./context.ts";
import { configOf } from "../db/client.ts";
import { openBulkWriter, type WriteOutcome } from "../db/bulk/writer.ts";
import { prepareTrajectory, type PreparedTrajectory } from "../db/bulk/rows.ts";
import { createImportJob, deleteImportedTrajectories, finishImportJob } from "../db/repositories/import-jobs.ts";
import { findPendingAttempts, type ForkLink } from "../db/repositories/forks.ts";
import type { LinkRequest } from "../db/bulk/fork-links.ts";
import { attachImportedLabels, type ImportedLabels } from "../db/repositories/datasets/imported-labels.ts";
import { indexMissingTrajectories } from "../db/repositories/search.ts";
import { warmReplayLayouts } from "./replay-session.ts";
import type { NormalizedTrajectory } from "../domain/trajectory.ts";

/** Where a problem is: "file:line: field: message". */
export interface ImportIssue {
  file: string;
  line?: number;
  path?: string;
  message: string;
  /** "warning": the trajectory was still imported (partially); default: the record failed. */
  severity?: "error" | "warning";
}

export type ImportRecord = { ok: true; value: NormalizedTrajectory; file: string; line?: number } | { ok: false; issue: ImportIssue };

export interface ImportReport {
  jobId: string | null;
  imported: number;
  duplicates: number;
  failed: number;
  steps: number;
  errors: ImportIssue[];
  /** Problems in sources whose trajectories were still imported (a bad line in a recording, a missing part). */
  warnings: ImportIssue[];
  unresolvedForks: { attempt: string; parent: string }[];
  /** Ids of the trajectories written by this import (capped for very large imports). */
  trajectoryIds: string[];
  /** In strict mode: true when the batch was rejected or rolled back as a whole. */
  rolledBack?: boolean;
}

export function formatIssue(i: ImportIssue): string {
  return `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.path ? `${i.path}: ` : ""}${i.message}`;
}

export interface ImportOptions {
  origin: "cli" | "upload" | "api" | "seed";
  dryRun?: boolean;
  /** All-or-nothing: any invalid record or failed write leaves the database as it was. */
  strict?: boolean;
  onProgress?: (r: ImportReport) => void;
  /** Called with every record's outcome (the CLI builds its per-file table from it). */
  onRecord?: (file: string, outcome: "imported" | "duplicate" | "failed", detail: { id?: string; line?: number; error?: string }) => void;
  /** Write on a separate thread while the next batch is parsed (CLI/benchmarks; SQLite). */
  threaded?: boolean;
  /** Add the new trajectories to the full-text index once written (default on; searches also catch up lazily). */
  indexSearch?: boolean;
  onIndexProgress?: (indexed: number) => void;
}

/** A trajectory handed to the writer, as far as its outcome needs it. */
interface SentRecord {
  file: string;
  line?: number;
  stepCount: number;
  outputChars: number;
  externalId: string | null;
  fork: NormalizedTrajectory["trajectory"]["fork"];
  labels: NormalizedTrajectory["trajectory"]["labels"];
}

const BATCH_TRAJECTORIES = 256;
const BATCH_STEPS = 8000;
const MAX_IN_FLIGHT = 2;
/** Output size from which an import lays out the replay right away (≈ 0.1 s per MB when done on first view). */
const REPLAY_WARM_CHARS = 2 * 1024 * 1024;
const MAX_IDS = 100_000;
const MAX_ERRORS = 10_000;

export function emptyReport(jobId: string | null): ImportReport {
  return { jobId, imported: 0, duplicates: 0, failed: 0, steps: 0, errors: [], warnings: [], unresolvedForks: [], trajectoryIds: [] };
}

export async function importTrajectories(ctx: ServiceContext, records: AsyncIterable<ImportRecord> | Iterable<ImportRecord>, opts: ImportOptions): Promise<ImportReport> {
  authorize(ctx, "trajectory:import");
  if (opts.strict && !opts.dryRun) {
    // Validate everything first: an invalid record anywhere rejects the whole import before anything is written.
    const buffered: ImportRecord[] = [];
    for await (const r of records) buffered.push(r);
    const bad = buffered.filter((r): r is Extract<ImportRecord, { ok: false }> => !r.ok && r.issue.severity !== "warning");
    if (bad.length) {
      return { ...emptyReport(null), failed: bad.length, errors: bad.map((b) => b.issue), rolledBack: true };
    }
    records = buffered;
  }

  const jobId = opts.dryRun ? null : await createImportJob(ctx.db, opts.origin, ctx.actor.id);
  const report = emptyReport(jobId);
  const writer = opts.dryRun ? null : await openBulkWriter(configOf(ctx.db), { threaded: opts.threaded });
  const forks: ForkLink[] = [];
  /** Labels carried by native trajectories (issue 10): attached as annotations once fork points exist. */
  const labelled: ImportedLabels[] = [];
  /** Client ids of the trajectories written now: attempts imported earlier may be waiting for them. */
  const newExternalIds: string[] = [];
  /** Trajectories with so much output that laying out their replay on first view would delay its first frame. */
  const bigOutput: string[] = [];
  let batch: PreparedTrajectory[] = [];
  /** What outcomes are reported against, per batch entry: kept apart so the rows can be freed once handed over. */
  let sources: SentRecord[] = [];
  let batchSteps = 0;

  const pushError = (i: ImportIssue) => {
    if (report.errors.length < MAX_ERRORS) report.errors.push(i);
  };
  // Up to MAX_IN_FLIGHT batches are being written while the next is parsed (two smooth out batches that parse fast
  // but write slowly, or the reverse); outcomes are recorded in order, as the writer finishes them.
  const inFlight: Promise<void>[] = [];
  const flush = async () => {
    if (!batch.length || !writer) return;
    while (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
    const sent = sources;
    const rows = batch;
    batch = [];
    sources = [];
    batchSteps = 0;
    // The threaded writer copies the rows here; nothing on this thread holds them afterwards.
    const written = writer.write(rows).then((outcomes) => record(sent, outcomes));
    written.catch(() => undefined); // a failure surfaces where it is awaited, not as an unhandled rejection meanwhile
    inFlight.push(written);
  };
  const drain = async () => {
    await flush();
    while (inFlight.length) await inFlight.shift();
  };
  const record = (sent: SentRecord[], outcomes: WriteOutcome[]) => {
    outcomes.forEach((o, i) => {
      const rec = sent[i]!;
      if (o.status === "imported") {
        report.imported++;
        report.steps += rec.stepCount;
        if (report.trajectoryIds.length < MAX_IDS) report.trajectoryIds.push(o.id);
        if (rec.externalId !== null) newExternalIds.push(rec.externalId);
        if (rec.outputChars >= REPLAY_WARM_CHARS && bigOutput.length < MAX_IDS) bigOutput.push(o.id);
        const f = rec.fork;
        if (f) forks.push({ attemptId: o.id, parentExternalId: f.parentId, stepIndex: f.stepIndex, attemptIndex: f.attemptIndex, errorCategory: f.errorCategory });
        if (rec.labels?.length) labelled.push({ trajectoryId: o.id, labels: rec.labels });
      } else if (o.status === "duplicate") report.duplicates++;
      else {
        report.failed++;
        pushError({ file: rec.file, line: rec.line, message: `database write failed: ${o.error}` });
      }
      opts.onRecord?.(rec.file, o.status, { line: rec.line, id: o.status === "failed" ? undefined : o.id, error: o.status === "failed" ? o.error : undefined });
    });
    opts.onProgress?.(report);
  };

  try {
    for await (const rec of records) {
      if (!rec.ok && rec.issue.severity === "warning") {
        if (report.warnings.length < MAX_ERRORS) report.warnings.push(rec.issue);
        continue;
      }
      if (!rec.ok) {
        report.failed++;
        pushError(rec.issue);
        opts.onRecord?.(rec.issue.file, "failed", { line: rec.issue.line, error: formatIssue(rec.issue) });
        opts.onProgress?.(report);
        continue;
      }
      if (opts.dryRun) {
        report.imported++;
        report.steps += rec.value.trajectory.steps.length;
        opts.onRecord?.(rec.file, "imported", { line: rec.line });
        opts.onProgress?.(report);
        continue;
      }
      const prepared = prepareTrajectory(rec.value, writer!.codec, jobId);
      batch.push(prepared);
      sources.push({ file: rec.file, line: rec.line, stepCount: prepared.stepCount, outputChars: prepared.outputChars, externalId: prepared.externalId, fork: rec.value.trajectory.fork, labels: rec.value.trajectory.labels });
      batchSteps += prepared.stepCount;
      if (batch.length >= BATCH_TRAJECTORIES || batchSteps >= BATCH_STEPS) await flush();
    }
    await drain();

    if (opts.strict && jobId && report.failed > 0) {
      await deleteImportedTrajectories(ctx.db, jobId);
      report.rolledBack = true;
      report.imported = 0;
      report.trajectoryIds = [];
      forks.length = 0;
    }
    if (writer && !report.rolledBack && newExternalIds.length) {
      // Attempts imported earlier may name a parent that arrived just now.
      const known = new Set(forks.map((f) => f.attemptId));
      const pending = await findPendingAttempts(ctx.db, newExternalIds);
      forks.push(...pending.filter((p) => !known.has(p.attemptId)));
    }
    if (writer && forks.length) {
      const requests: LinkRequest[] = forks.map((f) => ({ attemptId: f.attemptId, parent: { externalId: f.parentExternalId }, stepIndex: f.stepIndex, attemptIndex: f.attemptIndex, errorCategory: f.errorCategory, inferred: false }));
      const unresolved = await writer.linkForks(requests);
      report.unresolvedForks = unresolved.map((u) => ({ attempt: u.attemptId, parent: "externalId" in u.parent ? u.parent.externalId : u.parent.id }));
    }
  } finally {
    await writer?.close();
  }
  if (jobId && !report.rolledBack && labelled.length) {
    for (const problem of await attachImportedLabels(ctx.db, labelled)) if (report.warnings.length < MAX_ERRORS) report.warnings.push({ file: "(labels)", message: problem, severity: "warning" });
  }

  if (jobId && !report.rolledBack && report.imported > 0 && opts.indexSearch !== false) {
    // A separate phase after the write: the import's own transactions stay short, and search sees whole trajectories.
    let indexed = 0;
    for (let n = -1; n !== 0; ) {
      n = await indexMissingTrajectories(ctx.db, 1000);
      indexed += n;
      opts.onIndexProgress?.(indexed);
    }
  }
  if (jobId && !report.rolledBack && bigOutput.length) {
    // A layout that cannot be computed now is computed (and reported) on first view: the import itself stands.
    await warmReplayLayouts(ctx, bigOutput).catch((e: unknown) => report.warnings.push({ file: "(replay layout)", message: `laying out replays failed: ${(e as Error).message}`, severity: "warning" }));
  }
  if (jobId) {
    const status = report.failed === 0 ? "succeeded" : report.imported + report.duplicates > 0 && !report.rolledBack ? "partial" : "failed";
    await finishImportJob(ctx.db, jobId, { status, imported: report.imported, skipped: report.duplicates, failed: report.failed, report: { errors: report.errors.slice(0, 1000), warnings: report.warnings.slice(0, 1000), unresolvedForks: report.unresolvedForks } });
  }
  return report;
}
