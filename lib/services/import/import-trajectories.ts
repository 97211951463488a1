// Use case: write a stream of parsed trajectories (or per-record parse errors) into the database and report what
// happened. Trajectories are written in batches (one transaction each; a failing trajectory is retried and rolled
// back alone), so nothing half-imported is ever visible and a killed import can simply be re-run.
import { authorize, type ServiceContext } from "../context.ts";
import { configOf } from "../../db/client.ts";
import { openBulkWriter, type WriteOutcome } from "../../db/bulk/writer.ts";
import { prepareTrajectory, type PreparedTrajectory } from "../../db/bulk/rows.ts";
import { createImportJob, deleteImportedTrajectories, finishImportJob, markJobsResumed } from "../../db/repositories/import-jobs.ts";
import { currentOwner, findInterruptedImports } from "../import-integrity/interrupted-imports.ts";
import { settleImport } from "./settle-import.ts";
import {
  ANALYZE_AFTER_TRAJECTORIES,
  nextStatisticsRefresh,
  refreshStatisticsAfterBulkLoad,
  refreshStatisticsDuringBulkLoad,
} from "../../db/bulk/statistics.ts";
import type { ImportWarning, NormalizedTrajectory } from "../../domain/trajectory.ts";
import type { ImportIssue, ImportRecord } from "../../importers/types.ts";
import type { InferredLink } from "../../domain/fork-inference.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { attachImportedLabels, type ImportedLabels } from "../../db/repositories/datasets/imported-labels.ts";

export type { ImportIssue, ImportRecord };
export type { ImportWarning };

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
  /** Interrupted (killed) imports whose remaining phases this run completed. */
  resumedJobs: string[];
  /** Fork links inferred from shared prefixes (when inference was asked for). */
  inferredLinks: InferredLink[];
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
  /** Infer fork links from shared step prefixes once written (undoable per import). */
  inferForks?: boolean;
}

/** A trajectory handed to the writer, as far as its outcome needs it. */
interface SentRecord {
  file: string;
  line?: number;
  stepCount: number;
  outputChars: number;
  labels: NormalizedTrajectory["trajectory"]["labels"];
}

const BATCH_TRAJECTORIES = 256;
const BATCH_STEPS = 8000;
// Real trajectories carry recordings and outputs of megabytes: a batch is also cut by size, so the (up to
// MAX_IN_FLIGHT + 1) batches held at once, and their copies on the writer thread, stay bounded whatever the source.
const BATCH_OUTPUT_CHARS = 8 * 1024 * 1024;
const MAX_IN_FLIGHT = 2;
/** Output size from which an import lays out the replay right away (≈ 0.1 s per MB when done on first view). */
const REPLAY_WARM_CHARS = 2 * 1024 * 1024;
const MAX_IDS = 100_000;
const MAX_ERRORS = 10_000;

export function emptyReport(jobId: string | null): ImportReport {
  return {
    jobId,
    imported: 0,
    duplicates: 0,
    failed: 0,
    steps: 0,
    errors: [],
    warnings: [],
    unresolvedForks: [],
    trajectoryIds: [],
    resumedJobs: [],
    inferredLinks: [],
  };
}

export async function importTrajectories(
  ctx: ServiceContext,
  records: AsyncIterable<ImportRecord> | Iterable<ImportRecord>,
  opts: ImportOptions,
): Promise<ImportReport> {
  authorize(ctx, "trajectory:import");
  if (opts.strict && !opts.dryRun) {
    // Validate everything first: an invalid record, or a source that could not be read completely, rejects the
    // whole import before anything is written.
    const buffered: ImportRecord[] = [];
    for await (const r of records) buffered.push(r);
    const bad = strictFailures(buffered);
    if (bad.length) return { ...emptyReport(null), failed: bad.length, errors: bad, rolledBack: true };
    records = buffered;
  }

  // Imports killed earlier (their process is gone) are completed by this run's phases after the rows.
  const resumed = opts.dryRun ? [] : await findInterruptedImports(ctx);
  const jobId = opts.dryRun ? null : await createImportJob(ctx.db, opts.origin, ctx.actor.id, currentOwner());
  const report = emptyReport(jobId);
  const writer = opts.dryRun ? null : await openBulkWriter(configOf(ctx.db), { threaded: opts.threaded });
  /**
   * Labels carried by native trajectories (exported datasets carry them): attached as annotations once fork points
   * exist. Kept for duplicates too, so a re-run after a killed import attaches what the killed run did not (attaching
   * only creates missing labels, never changes existing ones).
   */
  const labelled: ImportedLabels[] = [];
  /** Trajectories with so much output that laying out their replay on first view would delay its first frame. */
  const bigOutput: string[] = [];
  let batch: PreparedTrajectory[] = [];
  /** What outcomes are reported against, per batch entry: kept apart so the rows can be freed once handed over. */
  let sources: SentRecord[] = [];
  let batchSteps = 0;
  let batchChars = 0;

  const pushError = (i: ImportIssue) => {
    if (report.errors.length < MAX_ERRORS) report.errors.push(i);
  };
  const pushWarnings = (ws: readonly ImportIssue[]) => {
    for (const w of ws) if (report.warnings.length < MAX_ERRORS) report.warnings.push({ ...w, severity: "warning" });
  };
  // Up to MAX_IN_FLIGHT batches are being written while the next is parsed (two smooth out batches that parse fast
  // but write slowly, or the reverse); outcomes are recorded in order, as the writer finishes them.
  const inFlight: Promise<void>[] = [];
  let statisticsAt = nextStatisticsRefresh(0);
  const flush = async () => {
    if (!batch.length || !writer) return;
    while (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
    if (report.imported >= statisticsAt) {
      statisticsAt = nextStatisticsRefresh(report.imported);
      await refreshStatisticsDuringBulkLoad(ctx.db);
    }
    const sent = sources;
    const rows = batch;
    batch = [];
    sources = [];
    batchSteps = 0;
    batchChars = 0;
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
        if (rec.outputChars >= REPLAY_WARM_CHARS && bigOutput.length < MAX_IDS) bigOutput.push(o.id);
        if (rec.labels?.length) labelled.push({ trajectoryId: o.id, labels: rec.labels });
      } else if (o.status === "duplicate") {
        report.duplicates++;
        if (rec.labels?.length) labelled.push({ trajectoryId: o.id, labels: rec.labels });
      } else {
        report.failed++;
        pushError({ file: rec.file, line: rec.line, message: `database write failed: ${o.error}` });
      }
      opts.onRecord?.(rec.file, o.status, {
        line: rec.line,
        id: o.status === "failed" ? undefined : o.id,
        error: o.status === "failed" ? o.error : undefined,
      });
    });
    opts.onProgress?.(report);
  };

  try {
    for await (const rec of records) {
      if (!rec.ok && rec.issue.severity === "warning") {
        pushWarnings([rec.issue]);
        continue;
      }
      if (!rec.ok) {
        report.failed++;
        pushError(rec.issue);
        opts.onRecord?.(rec.issue.file, "failed", { line: rec.issue.line, error: formatIssue(rec.issue) });
        opts.onProgress?.(report);
        continue;
      }
      pushWarnings(rec.value.warnings ?? []);
      if (opts.dryRun) {
        report.imported++;
        report.steps += rec.value.trajectory.steps.length;
        opts.onRecord?.(rec.file, "imported", { line: rec.line });
        opts.onProgress?.(report);
        continue;
      }
      let prepared: PreparedTrajectory;
      try {
        prepared = prepareTrajectory(rec.value, writer!.codec, jobId);
      } catch (e) {
        // A record that cannot even be hashed (absurd nesting that passed its importer) fails alone, named.
        report.failed++;
        pushError({ file: rec.file, line: rec.line, message: `the record could not be prepared: ${(e as Error).message}` });
        opts.onRecord?.(rec.file, "failed", { line: rec.line, error: (e as Error).message });
        continue;
      }
      batch.push(prepared);
      sources.push({
        file: rec.file,
        line: rec.line,
        stepCount: prepared.stepCount,
        outputChars: prepared.outputChars,
        labels: rec.value.trajectory.labels,
      });
      batchSteps += prepared.stepCount;
      batchChars += prepared.outputChars;
      if (batch.length >= BATCH_TRAJECTORIES || batchSteps >= BATCH_STEPS || batchChars >= BATCH_OUTPUT_CHARS) await flush();
    }
    await drain();
  } finally {
    await writer?.close();
  }

  if (opts.strict && jobId && report.failed > 0) {
    await deleteImportedTrajectories(ctx.db, jobId);
    report.rolledBack = true;
    report.imported = 0;
    report.trajectoryIds = [];
  }
  if (jobId && !report.rolledBack) {
    // A bulk load: the phases after it (fork links, search index) plan their reads on fresh statistics.
    if (report.imported >= ANALYZE_AFTER_TRAJECTORIES) await refreshStatisticsAfterBulkLoad(ctx.db);
    const settled = await settleImport(ctx, {
      jobId,
      resumedJobIds: resumed,
      inferForks: opts.inferForks ?? false,
      indexSearch: opts.indexSearch !== false,
      bigOutput,
      warmChars: REPLAY_WARM_CHARS,
      // A request (upload, API push) answers once the trajectories are in; a worker indexes them and lays their replays out.
      defer: opts.origin === "upload" || opts.origin === "api",
      imported: report.imported,
      onIndexProgress: opts.onIndexProgress,
    });
    report.unresolvedForks = settled.unresolvedForks;
    report.inferredLinks = settled.inferredLinks;
    pushWarnings(settled.warnings);
    report.resumedJobs = resumed;
    // After the settle phase: fork-point labels need their fork points.
    if (labelled.length)
      for (const problem of await attachImportedLabels(ctx.db, labelled))
        if (report.warnings.length < MAX_ERRORS) report.warnings.push({ file: "(labels)", message: problem, severity: "warning" });
  }
  if (jobId) {
    const status = report.failed === 0 ? "succeeded" : report.imported + report.duplicates > 0 && !report.rolledBack ? "partial" : "failed";
    await finishImportJob(ctx.db, jobId, {
      status,
      imported: report.imported,
      skipped: report.duplicates,
      failed: report.failed,
      report: {
        errors: report.errors.slice(0, 1000),
        warnings: report.warnings.slice(0, 1000),
        unresolvedForks: report.unresolvedForks.slice(0, 1000),
        resumedJobs: resumed,
      },
    });
    // Demo seeding is not a user's action; every other import is.
    if (opts.origin !== "seed") {
      await recordAudit(ctx, {
        action: "import.finish",
        targetType: "import-job",
        targetId: jobId,
        details: { origin: opts.origin, status, imported: report.imported, duplicates: report.duplicates, failed: report.failed },
      });
    }
    // Only now, with every phase done, do the interrupted jobs stop showing as interrupted.
    if (!report.rolledBack && resumed.length) await markJobsResumed(ctx.db, resumed, jobId);
  }
  return report;
}

/**
 * Under --strict, what fails an import: invalid records, and sources that could not be read completely (a warning,
 * whether on its own or kept with a trajectory).
 */
function strictFailures(records: readonly ImportRecord[]): ImportIssue[] {
  const out: ImportIssue[] = [];
  for (const r of records) {
    if (!r.ok)
      out.push({
        ...r.issue,
        severity: "error",
        message: r.issue.severity === "warning" ? `source not read completely under --strict: ${r.issue.message}` : r.issue.message,
      });
    else
      for (const w of r.value.warnings ?? [])
        out.push({ ...w, severity: "error", message: `source not read completely under --strict: ${w.message}` });
  }
  return out;
}
