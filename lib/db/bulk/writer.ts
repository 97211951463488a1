// Bulk trajectory writer: the import fast path. Bypasses Prisma's per-row path (raw driver connections) but lives
// in the db layer and writes exactly the rows Prisma would. A batch is one transaction; when a batch fails, each of
// its trajectories is retried in its own transaction so a bad one is rolled back alone.
import type { DatabaseConfig } from "../../env.ts";
import type { BulkWriter } from "./writer-contract.ts";

export { conflictMessage, errorMessage, type BulkWriter, type LinkRequest, type WriteOutcome } from "./writer-contract.ts";

/**
 * `threaded`: run the writer (error detection, encoding, the driver) on a worker thread (CLI and benchmarks, where tsx can load the worker); the Next.js
 * server writes in-process.
 */
export async function openBulkWriter(config: DatabaseConfig, opts: { threaded?: boolean } = {}): Promise<BulkWriter> {
  if (opts.threaded) {
    const { ThreadedWriter } = await import("./threaded-writer.ts");
    return new ThreadedWriter(config);
  }
  if (config.provider === "sqlite") {
    const { SqliteBulkWriter } = await import("./sqlite-writer.ts");
    return new SqliteBulkWriter(config.file);
  }
  const { PgBulkWriter } = await import("./pg-writer.ts");
  return new PgBulkWriter(config.url);
}
