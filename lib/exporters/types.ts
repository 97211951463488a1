// What every writer gets: one item of a dataset version, read back from the database, with its provenance.
import type { Provenance, StoredTrajectory } from "../domain/curation/types.ts";
import type { ExportOptions } from "./chat/options.ts";
import type { ChatStats } from "./chat/stats.ts";

export interface ExportItem {
  item: StoredTrajectory;
  /** The failed parent, for a recovery segment (its steps up to the fork are the context). */
  parent: StoredTrajectory | null;
  provenance: Provenance;
}

/** A format's writer: an optional header line, then zero or more lines per item (each line ends with "\n"). */
export interface RowWriter {
  format: string;
  /** File extension of the data file. */
  extension: string;
  contentType: string;
  header?: string;
  lines(e: ExportItem): string[];
  /** Chat formats: the options written with and what was counted (for the card). */
  chat?: { options: ExportOptions; stats: ChatStats };
}
