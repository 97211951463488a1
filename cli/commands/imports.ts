// `reterm imports [--limit N] [--json]`: recent import jobs; a killed one shows as interrupted until a re-run completes it.
import { z } from "zod";
import { parseCommandArgs } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { listImportJobs } from "../../lib/services/import-integrity/list-import-jobs.ts";

export const IMPORTS_HELP = `imports [--limit N] [--json]  recent import jobs (interrupted ones are completed by the next import)`;

export async function importsCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    { limit: { type: "string" }, json: { type: "boolean" } },
    z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(20),
      json: z.boolean().default(false),
    }),
  );
  const jobs = await listImportJobs(await getCliContext(), values.limit);
  if (values.json) return console.log(JSON.stringify(jobs));
  if (!jobs.length) return console.log("No imports yet.");
  for (const j of jobs)
    console.log(
      `${j.id}  ${j.startedAt.slice(0, 19).replace("T", " ")}  ${j.origin.padEnd(6)}  ${j.status.padEnd(11)}  ${j.imported} imported, ${j.skipped} duplicates, ${j.failed} failed`,
    );
  if (jobs.some((j) => j.status === "interrupted"))
    console.log("\nInterrupted imports are completed by the next `reterm import` (re-run the same command).");
}
