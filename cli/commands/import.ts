// `reterm import <paths...>`: import files and folders with a live progress line and a per-file summary table.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { importFiles, type ImportFilesResult } from "../../lib/services/import/import-files.ts";
import { formatIssue } from "../../lib/services/import/import-trajectories.ts";
import { FORMAT_IDS } from "../../lib/importers/registry.ts";
import { ProgressLine } from "../progress.ts";

export const IMPORT_HELP = `import <paths...> [--run NAME] [--format F] [--dry-run] [--strict] [--no-infer-forks] [--json]
                               import files/folders (formats: ${FORMAT_IDS.join(", ")}; .gz ok)`;

const MB = 1024 * 1024;

export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      run: { type: "string" },
      format: { type: "string" },
      "dry-run": { type: "boolean" },
      strict: { type: "boolean" },
      "no-infer-forks": { type: "boolean" },
      json: { type: "boolean" },
    },
    z.object({
      run: z.string().min(1).max(200).optional(),
      format: z.enum(FORMAT_IDS as [string, ...string[]]).optional(),
      "dry-run": z.boolean().default(false),
      strict: z.boolean().default(false),
      "no-infer-forks": z.boolean().default(false),
      json: z.boolean().default(false),
    }),
  );
  if (!positionals.length) throw new UsageError("import needs at least one file or folder");
  await setupDatabase(getEnv().DATABASE_URL);
  const ctx = await getCliContext();
  const progress = new ProgressLine(undefined, "");
  const started = Date.now();
  const result = await importFiles(ctx, positionals, {
    origin: "cli",
    format: values.format,
    runName: values.run,
    dryRun: values["dry-run"],
    strict: values.strict,
    inferForks: !values["no-infer-forks"],
    onIndexProgress: (n) => progress.text(`indexing for search: ${n.toLocaleString("en-US")} trajectories`),
    onProgress: (p) => {
      const secs = Math.max(0.001, (Date.now() - started) / 1000);
      const rate = p.bytes / MB / secs;
      const eta = rate > 0 && p.totalBytes > p.bytes ? ` · ETA ${Math.ceil((p.totalBytes - p.bytes) / MB / rate)}s` : "";
      progress.text(
        `files ${p.files}/${p.totalFiles} · trajectories ${p.report.imported + p.report.duplicates + p.report.failed} · ${(p.bytes / MB).toFixed(1)}/${(p.totalBytes / MB).toFixed(1)} MB · ${rate.toFixed(1)} MB/s${eta}`,
      );
    },
  });
  progress.done();
  if (values.json) console.log(JSON.stringify(jsonSummary(result)));
  else printSummary(result, values["dry-run"]);
  if (result.report.failed > 0 || result.files.some((f) => f.failed > 0)) process.exitCode = 1;
}

function jsonSummary(r: ImportFilesResult) {
  const { report } = r;
  return {
    jobId: report.jobId,
    imported: report.imported,
    duplicates: report.duplicates,
    failed: report.failed,
    steps: report.steps,
    rolledBack: report.rolledBack ?? false,
    errors: report.errors.map(formatIssue),
    warnings: report.warnings.map(formatIssue),
    files: r.files,
    inferredForks: r.inferredForks?.links ?? [],
    unresolvedForks: report.unresolvedForks,
    resumedJobs: report.resumedJobs,
    megabytes: +(r.bytes / MB).toFixed(3),
    seconds: +r.seconds.toFixed(3),
  };
}

function printSummary(r: ImportFilesResult, dryRun: boolean): void {
  const { report } = r;
  const rows = r.files.map((f) => [
    f.file,
    f.format ?? "—",
    String(f.imported),
    String(f.duplicates),
    String(f.failed),
    f.skipped ? `skipped: ${f.skipped}` : "",
  ]);
  const head = ["file", "format", dryRun ? "valid" : "imported", "duplicates", "failed", ""];
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.slice(-widths[i]!).padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  console.log("");
  const verb = dryRun ? "valid (dry run, nothing written)" : "imported";
  console.log(
    `${report.imported} ${verb}, ${report.duplicates} skipped as duplicates, ${report.failed} failed — ${(r.bytes / MB).toFixed(1)} MB in ${r.seconds.toFixed(1)} s (${(r.bytes / MB / Math.max(r.seconds, 0.001)).toFixed(1)} MB/s)`,
  );
  if (report.rolledBack) console.log("Strict mode: nothing was imported because of the failures below.");
  if (report.errors.length) {
    console.log("\nFailures:");
    for (const e of report.errors.slice(0, 50)) console.log(`  ${formatIssue(e)}`);
    if (report.errors.length > 50) console.log(`  … and ${report.errors.length - 50} more (use --json for all)`);
  }
  if (report.warnings.length) {
    console.log("\nWarnings (imported, but part of the source could not be read):");
    for (const w of report.warnings.slice(0, 20)) console.log(`  ${formatIssue(w)}`);
    if (report.warnings.length > 20) console.log(`  … and ${report.warnings.length - 20} more (use --json for all)`);
  }
  const inferred = r.inferredForks?.links ?? [];
  if (inferred.length)
    console.log(`\nInferred ${inferred.length} fork link(s) from shared prefixes (undo: npm run reterm -- forks undo ${report.jobId}).`);
  if (report.unresolvedForks.length)
    console.log(
      `\n${report.unresolvedForks.length} attempt(s) name a parent that is not in the database yet; import the parent and they link automatically on re-import.`,
    );
  if (report.resumedJobs.length)
    console.log(`\nCompleted ${report.resumedJobs.length} interrupted import(s): ${report.resumedJobs.join(", ")}.`);
  if (report.jobId) console.log(`\nImport job: ${report.jobId}`);
}
