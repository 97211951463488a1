// `npm run worker`: run background jobs only (exports, storing frozen versions' exports, the retention sweep), on the
// database DATABASE_URL names and the file storage RETERM_STORAGE names. Start as many as you like, on any machine
// that reaches both; web replicas then run with RETERM_JOBS=off. SIGINT/SIGTERM stop it: runs in progress are
// aborted and queued again for another worker.
import "./require-node.ts"; // first: stops with one line on an unsupported Node.js
import { getEnv, EnvError } from "../lib/env.ts";
import { describeError } from "../lib/errors.ts";
import { closeDatabase, setupDatabase } from "../lib/services/system/setup-database.ts";
import { startJobWorker, stopJobWorker } from "../lib/services/jobs/start-worker.ts";

async function main(): Promise<void> {
  const env = getEnv();
  await setupDatabase(env.DATABASE_URL);
  await startJobWorker();
  console.log(
    `ReTerm Studio worker ${process.pid}: running jobs on ${env.DATABASE_URL.provider} (${env.RETERM_JOB_CONCURRENCY} at a time per kind)`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`worker ${process.pid}: ${signal}, stopping (runs in progress go back to the queue)`);
    void stopJobWorker()
      .then(closeDatabase)
      .then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((e: unknown) => {
  console.error(e instanceof EnvError ? e.message : `reterm worker: ${describeError(e).message}`);
  process.exit(1);
});
