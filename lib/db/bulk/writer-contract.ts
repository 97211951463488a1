// What every bulk writer is (the contract the SQLite, PostgreSQL and threaded writers implement) and the messages they
// share; writer.ts picks one. Kept apart so the writers never import the factory that imports them.
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

/** Same client id, different content: refuse rather than silently keep either version. */
export function conflictMessage(externalId: string | null): string {
  return `id "${externalId}" was already imported with different content (ids must be unique; re-import identical content, or use a new id)`;
}

export function errorMessage(e: unknown): string {
  return ((e as Error)?.message ?? String(e)).split("\n").filter(Boolean).at(-1) ?? "unknown error";
}
