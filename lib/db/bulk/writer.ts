// Bulk trajectory writer: the import fast path. Bypasses Prisma's per-row path (raw driver connections) but lives
// in the db layer and writes exactly the rows Prisma would. A batch is one transaction; when a batch fails, each of
// its trajectories is retried in its own transaction so a bad one is rolled back alone.
import type { DatabaseConfig } from "../../env.ts";
import type { CellCodec, PreparedTrajectory } from "./rows.ts";
import type { LinkRequest } from "./fork-links.ts";

export type { LinkRequest };

export type WriteOutcome = { status: "imported"; id: string } | { status: "duplicate"; id: string } | { status: "failed"; error: string };

export interface BulkWriter {
  /** How this provider encodes booleans and dates (rows are prepared with it before being written). */
  readonly codec: CellCodec;
  /** Runs addDetectedErrors() on each trajectory first (on the writer's own thread where it has one). */
  write(batch: PreparedTrajectory[]): Promise<WriteOutcome[]>;
  /** Link attempts to their parents (creating fork points); returns the requests whose parent is not in the database. */
  linkForks(links: LinkRequest[]): Promise<LinkRequest[]>;
  close(): Promise<void>;
}

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

/** Same client id, different content: refuse rather than silently keep either version. */
export function conflictMessage(externalId: string | null): string {
  return `id "${externalId}" was already imported with different content (ids must be unique; re-import identical content, or use a new id)`;
}

export function errorMessage(e: unknown): string {
  return ((e as Error)?.message ?? String(e)).split("\n").filter(Boolean).at(-1) ?? "unknown error";
}
