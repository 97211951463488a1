// `reterm jobs [--state S] [--limit N] [--json]`: recent background jobs (exports, storing frozen versions' exports,
// replay layouts, retention) with their state, progress, attempts, worker and error.
import { z } from "zod";
import { parseCommandArgs } from "../args.ts";
import { getCliContext } from "../../lib/services/cli-context.ts";
import { listBackgroundJobs } from "../../lib/services/jobs/list-jobs.ts";

export const JOBS_HELP = `jobs [--state queued|running|succeeded|failed] [--limit N] [--json]  recent background jobs (run by npm start or npm run worker)`;

export async function jobsCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(
    argv,
    { state: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } },
    z.object({ state: z.string().optional(), limit: z.string().optional(), json: z.boolean().default(false) }),
  );
  const { jobs, counts } = await listBackgroundJobs(await getCliContext(), { state: values.state, limit: values.limit ?? 20 });
  if (values.json) return console.log(JSON.stringify({ jobs, counts }));
  console.log(`${counts.queued} queued, ${counts.running} running, ${counts.succeeded} succeeded, ${counts.failed} failed`);
  for (const j of jobs) {
    const progress = j.progressTotal ? ` ${Math.floor((j.progressDone / j.progressTotal) * 100)}%` : "";
    const tail = j.state === "succeeded" ? (j.result ?? "") : (j.error ?? "");
    console.log(
      `${j.id}  ${j.createdAt.slice(0, 19).replace("T", " ")}  ${j.state.padEnd(9)}${progress}  attempt ${j.attempts}/${j.maxAttempts}  ${j.title}${tail ? `  — ${tail}` : ""}`,
    );
  }
}
