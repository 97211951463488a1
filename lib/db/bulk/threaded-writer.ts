import { Worker } from "node:worker_threads";
import type { DatabaseConfig } from "../../env.ts";
import { sqliteCodec } from "./sqlite-writer.ts";
import { pgCodec } from "./pg-writer.ts";
import type { LinkRequest } from "./fork-links.ts";
import type { PreparedTrajectory } from "./rows.ts";
import type { BulkWriter, WriteOutcome } from "./writer-contract.ts";

/** BulkWriter facade over writer-thread.ts (either provider). Calls may overlap: the worker handles them in order. */
export class ThreadedWriter implements BulkWriter {
  readonly codec;
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();

  constructor(config: DatabaseConfig) {
    this.codec = config.provider === "sqlite" ? sqliteCodec : pgCodec;
    // The worker code is TypeScript: its .mjs entry registers tsx (the CLI runtime) in the thread first.
    // A modest heap budget keeps the writer thread's garbage from inflating RSS (it holds one batch at a time).
    this.worker = new Worker(new URL("./writer-thread-entry.mjs", import.meta.url), {
      workerData: { config },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.worker.on("message", (m: { id: number; ok: boolean; value?: never; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.ok) p?.resolve(m.value as never);
      else p?.reject(new Error(m.error));
    });
    this.worker.on("error", (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  private call<T>(op: "write" | "link" | "close", arg?: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: never) => void, reject });
      this.worker.postMessage({ id, op, arg });
    });
  }

  write(batch: PreparedTrajectory[]): Promise<WriteOutcome[]> {
    return this.call("write", batch);
  }

  linkForks(links: LinkRequest[]): Promise<LinkRequest[]> {
    return this.call("link", links);
  }

  async close(): Promise<void> {
    await this.call("close");
    await this.worker.terminate();
  }
}
