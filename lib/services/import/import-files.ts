// Use case: import files and folders from disk (CLI, and uploads once unpacked): walk → detect the format →
// read with that importer → write (import-trajectories) → infer fork links. Reports per file.
import fs from "node:fs";
import path from "node:path";
import { authorize, type ServiceContext } from "../context.ts";
import { importTrajectories, type ImportIssue, type ImportRecord, type ImportReport } from "./import-trajectories.ts";
import type { InferredForksReport } from "./infer-forks.ts";
import { findImporter, FORMAT_IDS } from "../../importers/registry.ts";
import { walkInputs } from "../../importers/walk.ts";
import type { Importer, ImportSource, ReadOptions } from "../../importers/types.ts";
import { AppError } from "../../errors.ts";

export interface FileSummary {
  file: string;
  format: string | null;
  imported: number;
  duplicates: number;
  failed: number;
  /** Why the file was skipped (not a trajectory format) — not counted as a failure when found inside a folder. */
  skipped?: string;
}

export interface ImportFilesResult {
  report: ImportReport;
  files: FileSummary[];
  bytes: number;
  seconds: number;
  inferredForks: InferredForksReport | null;
}

export interface ImportFilesOptions {
  origin: "cli" | "upload";
  format?: string;
  runName?: string;
  dryRun?: boolean;
  strict?: boolean;
  /** Group same-task trajectories with identical prefixes as sibling attempts (default on). */
  inferForks?: boolean;
  onProgress?: (p: { files: number; totalFiles: number; bytes: number; totalBytes: number; report: ImportReport }) => void;
  onIndexProgress?: (indexed: number) => void;
}

function sizeOf(p: string): { files: number; bytes: number } {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return { files: 0, bytes: 0 };
  if (st.isFile()) return { files: 1, bytes: st.size };
  if (!st.isDirectory()) return { files: 0, bytes: 0 };
  let files = 0,
    bytes = 0;
  for (const e of fs.readdirSync(p)) {
    const s = sizeOf(path.join(p, e));
    files += s.files;
    bytes += s.bytes;
  }
  return { files, bytes };
}

/**
 * One source through its importer. Importers report bad content as issues; what still escapes (a corrupt .gz stream,
 * an unreadable file) becomes an issue naming the file, never a crash of the whole import. What was read before it
 * stands, and the failure is reported (under --strict it rejects the import).
 */
export async function* readSource(importer: Importer, source: ImportSource, options: ReadOptions): AsyncGenerator<ImportRecord> {
  try {
    for await (const rec of importer.read(source, options)) yield rec;
  } catch (e) {
    yield { ok: false, issue: { file: source.displayPath, message: readFailure(e) } };
  }
}

/** One line for a source that could not be read to its end. */
export function readFailure(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code === "string" && err.code.startsWith("Z_"))
    return `corrupt or truncated gzip data (${err.message}); the file could not be read to its end`;
  if (err?.code === "EACCES" || err?.code === "EISDIR" || err?.code === "ENOENT") return `cannot read the file (${err.code})`;
  if (e instanceof RangeError) return `the file could not be read: ${err.message}`;
  return `the file could not be read: ${err?.message ?? String(e)}`;
}

export async function importFiles(ctx: ServiceContext, inputs: string[], opts: ImportFilesOptions): Promise<ImportFilesResult> {
  authorize(ctx, "trajectory:import");
  const forced = opts.format ? findImporter(opts.format) : undefined;
  if (opts.format && !forced) throw new AppError("INVALID_INPUT", `unknown format "${opts.format}" (known: ${FORMAT_IDS.join(", ")})`);
  const started = Date.now();
  const totals = inputs.map(sizeOf).reduce((a, b) => ({ files: a.files + b.files, bytes: a.bytes + b.bytes }), { files: 0, bytes: 0 });
  const files = new Map<string, FileSummary>();
  let doneFiles = 0,
    doneBytes = 0;
  let lastReport: ImportReport | null = null;

  const summary = (file: string, format: string | null) => {
    let s = files.get(file);
    if (!s) files.set(file, (s = { file, format, imported: 0, duplicates: 0, failed: 0 }));
    return s;
  };
  const progress = () =>
    lastReport &&
    opts.onProgress?.({ files: doneFiles, totalFiles: totals.files, bytes: doneBytes, totalBytes: totals.bytes, report: lastReport });

  async function* records(): AsyncGenerator<ImportRecord> {
    for await (const unit of walkInputs(inputs, { format: forced })) {
      if (unit.kind === "unrecognised") {
        const s = summary(unit.displayPath, null);
        if (unit.explicit) {
          const issue: ImportIssue = { file: unit.displayPath, message: unit.reason };
          yield { ok: false, issue };
        } else s.skipped = unit.reason;
        doneFiles++;
        continue;
      }
      const { source, importer } = unit;
      summary(source.displayPath, importer.format);
      yield* readSource(importer, source, { runName: opts.runName });
      const done = source.kind === "file" ? { files: 1, bytes: source.size } : sizeOf(source.path);
      doneFiles += Math.max(1, done.files);
      doneBytes += done.bytes;
      progress();
    }
  }

  // Records name the file (or a file inside a directory source); attribute outcomes to the best-matching unit.
  const fileFor = (file: string) => {
    if (files.has(file)) return files.get(file)!;
    for (const s of files.values()) if (file.startsWith(`${s.file}/`) || file.startsWith(`${s.file}[`)) return s;
    return summary(file, null);
  };
  const report = await importTrajectories(ctx, records(), {
    origin: opts.origin,
    dryRun: opts.dryRun,
    strict: opts.strict,
    // The CLI runs under tsx, which can load the SQLite writer thread; the web server writes in-process.
    threaded: opts.origin === "cli",
    onIndexProgress: opts.onIndexProgress,
    inferForks: opts.inferForks !== false,
    onRecord: (file, outcome) => {
      const s = fileFor(file);
      if (outcome === "imported") s.imported++;
      else if (outcome === "duplicate") s.duplicates++;
      else s.failed++;
    },
    onProgress: (r) => {
      lastReport = r;
      progress();
    },
  });

  const inferred =
    !opts.dryRun && !report.rolledBack && report.jobId && opts.inferForks !== false
      ? { importJobId: report.jobId, links: report.inferredLinks }
      : null;
  return { report, files: [...files.values()], bytes: doneBytes, seconds: (Date.now() - started) / 1000, inferredForks: inferred };
}
