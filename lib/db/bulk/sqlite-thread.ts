// Runs the SQLite bulk writer on a worker thread, so that parsing and row preparation (main thread) overlap with
// SQLite's inserts (this thread) on a multi-core machine. Message protocol: {id, op, arg} → {id, ok, value | error}.
import { parentPort, workerData } from "node:worker_threads";
import { SqliteBulkWriter } from "./sqlite-writer.ts";

const writer = new SqliteBulkWriter(String(workerData.file));

parentPort!.on("message", async (msg: { id: number; op: "write" | "link" | "close"; arg: never }) => {
  try {
    const value = msg.op === "write" ? await writer.write(msg.arg) : msg.op === "link" ? await writer.linkForks(msg.arg) : await writer.close();
    parentPort!.postMessage({ id: msg.id, ok: true, value });
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, ok: false, error: (e as Error).message });
  }
});
