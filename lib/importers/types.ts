// The contract every import format implements. One module per format (lib/importers/<format>.ts), each with
// its own zod schema, producing the one normalized trajectory type (lib/domain/trajectory.ts).
import type { NormalizedTrajectory } from "../domain/trajectory.ts";

/** Where a problem is: "file:line: field: message". */
export interface ImportIssue {
  file: string;
  line?: number;
  path?: string;
  message: string;
  /** "warning": the trajectory was still imported (partially); default: the record failed. */
  severity?: "error" | "warning";
}

/**
 * A parsed trajectory (with what could not be read of its source in `value.warnings`), or an issue. An issue with
 * severity "warning" that is not attached to a trajectory is still reported (and fails the import under --strict).
 */
export type ImportRecord = { ok: true; value: NormalizedTrajectory; file: string; line?: number } | { ok: false; issue: ImportIssue };

/** A file or directory offered to the importers. Files are already decompressed (.gz) by the reader. */
export type ImportSource =
  | {
      kind: "file";
      /** Absolute path on disk. */
      path: string;
      /** Path shown in messages (relative to what the user named), e.g. "run-3/trial-7/agent/trajectory.json". */
      displayPath: string;
      /** First bytes of the (decompressed) content, at most 64 KiB, for format sniffing. */
      head: string;
      /** Why the head could not be read to its end (a corrupt .gz), if so. */
      headError?: string;
      /** Size of the file on disk in bytes. */
      size: number;
      /** Stream of the (decompressed) content. */
      open(): NodeJS.ReadableStream;
    }
  | {
      kind: "dir";
      path: string;
      displayPath: string;
      /** Names of the entries directly inside the directory. */
      entries: string[];
    };

export interface ReadOptions {
  /** Overrides the run name for every trajectory read (CLI --run). */
  runName?: string;
}

export interface Importer {
  /** Stable id used by --format and stored as Trajectory.sourceFormat, e.g. "atif", "asciicast". */
  format: string;
  /** Human-readable name for help texts and the import page. */
  label: string;
  /**
   * Cheap check (no full parse) whether this importer reads the source. Return a confidence in [0, 1]; the
   * registry picks the highest. Directory importers claim a directory; file importers claim files.
   */
  detect(source: ImportSource): number;
  /**
   * Read the source as a stream of records: parsed trajectories, or issues naming file, line and field.
   * Must never throw for bad content (report an issue instead) and must not load unbounded data in memory:
   * line-oriented formats are streamed line by line.
   * For directory importers, `claimedPaths` lists files inside the directory that were consumed, so the
   * walker does not import them again on their own.
   */
  read(source: ImportSource, options: ReadOptions): AsyncIterable<ImportRecord>;
  /** Directory importers: absolute paths of files/dirs this importer consumes inside `source` (not walked again). */
  claims?(source: Extract<ImportSource, { kind: "dir" }>): string[];
}
