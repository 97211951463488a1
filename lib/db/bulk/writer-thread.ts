// Runs a bulk writer (SQLite or PostgreSQL) on a worker thread, so that parsing and row preparation (main thread)
// overlap with error detection, encoding and the database's own work (this thread) on a multi-core machine.
// Message protocol: {id, op, arg} → {id, ok, value | error}. Batches are handled in the order they arrive (the SQLite
// writer is synchronous; the PostgreSQL writer queues its batches itself).
import { parentPort, workerData } from "node:worker_threads";
import type { DatabaseConfig } from "../../env.ts";
import type { BulkWriter } from "./writer-contract.ts";

const config = workerData.config as DatabaseConfig;
const writer: BulkWriter =
  config.provider === "sqlite"
    ? new (await import("./sqlite-writer.ts")).SqliteBulkWriter(config.file)
    : new (await import("./pg-writer.ts")).PgBulkWriter(config.url);

parentPort!.on("message", async (msg: { id: number; op: "write" | "link" | "close"; arg: never }) => {
  try {
    const value =
      msg.op === "write" ? await writer.write(msg.arg) : msg.op === "link" ? await writer.linkForks(msg.arg) : await writer.close();
    parentPort!.postMessage({ id: msg.id, ok: true, value });
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, ok: false, error: (e as Error).message });
  }
});
