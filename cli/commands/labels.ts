// `reterm labels import FILE [--as-suggestions]`: human labels from JSONL (one label per line), or with
// --as-suggestions the same lines as suggestions from the source the "annotator" field names; errors name file and line.
import fs from "node:fs";
import { z } from "zod";
import { parseCommandArgs, UsageError } from "../args.ts";
import { getEnv } from "../../lib/env.ts";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { importLabels } from "../../lib/services/annotation/import-labels.ts";
import { importSuggestions } from "../../lib/services/annotation/suggestions/import-suggestions.ts";

export const LABELS_HELP = `labels import FILE [--as-suggestions] [--json]
                               import human labels (JSONL: trajectory, schema, value, annotator, target?, comment?);
                               all lines are checked before anything is written; re-importing changes nothing;
                               --as-suggestions: the lines become suggestions from source imported:<annotator>, not labels`;

const MAX_BYTES = 256 * 1024 * 1024;

export async function labelsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== "import") throw new UsageError("usage: labels import FILE [--as-suggestions] [--json]");
  const { values, positionals } = parseCommandArgs(
    rest,
    { json: { type: "boolean" }, "as-suggestions": { type: "boolean" } },
    z.object({ json: z.boolean().default(false), "as-suggestions": z.boolean().default(false) }),
  );
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new UsageError("labels import takes exactly one FILE");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UsageError(`${file}: no such file`);
  }
  if (!stat.isFile()) throw new UsageError(`${file}: not a file`);
  if (stat.size > MAX_BYTES) throw new UsageError(`${file}: larger than ${MAX_BYTES / 1024 / 1024} MB`);
  await setupDatabase(getEnv().DATABASE_URL);
  if (values["as-suggestions"]) return suggestionsImport(file, values.json);
  const r = await importLabels(await getCliContext(), fs.readFileSync(file, "utf8"), { file });
  if (values.json) console.log(JSON.stringify(r));
  else {
    for (const i of r.issues) console.error(`${file}:${i.line}: ${i.field}: ${i.message}`);
    if (r.issues.length && !r.created && !r.updated)
      console.error(`No labels imported: ${r.issues.length} problem(s) in ${r.lines} line(s). Fix them and import again.`);
    else
      console.log(
        `Labels: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged${r.annotatorsCreated.length ? `; new annotators: ${r.annotatorsCreated.join(", ")}` : ""}.`,
      );
  }
  if (r.issues.length) process.exitCode = 1;
}

async function suggestionsImport(file: string, json: boolean): Promise<void> {
  const r = await importSuggestions(await getCliContext(), fs.readFileSync(file, "utf8"), { file });
  if (json) console.log(JSON.stringify(r));
  else {
    for (const i of r.issues) console.error(`${file}:${i.line}: ${i.field}: ${i.message}`);
    if (r.issues.length)
      console.error(`No suggestions imported: ${r.issues.length} problem(s) in ${r.lines} line(s). Fix them and import again.`);
    else
      console.log(
        `Suggestions (not labels): ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged${r.sources.length ? `; source(s): ${r.sources.join(", ")}` : ""}.`,
      );
  }
  if (r.issues.length) process.exitCode = 1;
}
