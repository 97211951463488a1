// `reterm export --dataset NAME[@VERSION] --format F --out FILE`: stream a dataset version to FILE (README.md card
// beside it), with a progress bar on stderr. A dataset without a frozen version exports its current items.
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { ProgressLine } from "../progress.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { openExport, writeExportFiles } from "../../lib/services/curation/export-dataset.ts";
import { cleanExports } from "../../lib/services/curation/export-jobs.ts";
import { EXPORT_FORMATS } from "../../lib/domain/curation/types.ts";
import { tuneForShortExport } from "../export-process.ts";

export const EXPORT_HELP = `export --dataset NAME[@VERSION] --format ${EXPORT_FORMATS.join("|")} --out FILE [--override-held-out REASON]
                               write a dataset version (README.md dataset card beside it)
  export --clean               delete background-export files past RETERM_EXPORT_RETENTION_DAYS or replaced by newer ones`;

const schema = z.object({
  dataset: z.string({ message: "is required" }).regex(/^[\w.-]+(@\d+)?$/, "must be NAME or NAME@VERSION"),
  format: z.enum(EXPORT_FORMATS, { message: `must be one of ${EXPORT_FORMATS.join(", ")}` }),
  out: z.string({ message: "is required" }).min(1),
  "override-held-out": z.string().min(3, "must give a reason").optional(),
});

export async function exportCommand(argv: string[]): Promise<void> {
  if (argv.length === 1 && argv[0] === "--clean") return void console.log(`Deleted ${await cleanExports(await getCliContext())} expired export file(s).`);
  const { values, positionals } = parseCommandArgs(argv, { dataset: { type: "string" }, format: { type: "string" }, out: { type: "string" }, "override-held-out": { type: "string" } }, schema);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  tuneForShortExport();
  const [name, version] = values.dataset.split("@");
  const opened = await openExport(await getCliContext(), {
    name: name!, version: version ? Number(version) : undefined, format: values.format,
    override: values["override-held-out"] ? { reason: values["override-held-out"] } : undefined,
  });
  const progress = new ProgressLine(opened.total, "items");
  const started = Date.now();
  const { bytes, cardPath } = await writeExportFiles(opened, values.out, (done) => progress.update(done));
  progress.done();
  const label = opened.version.frozenAt ? `version ${opened.version.version} (hash ${opened.version.contentHash})` : "current items (not frozen)";
  console.log(`Exported "${name}" ${label}: ${opened.total} items, ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s → ${values.out}; card: ${cardPath}`);
}
