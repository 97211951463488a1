// Render a dataset version in one format: items are read a batch at a time and written as lines, so memory stays flat
// whatever the size. Output is deterministic (position order, stable ids, no timestamps of the export itself), so
// the same version rendered twice is byte-identical. Used by exports of drafts and of versions frozen before their
// exports were stored, and to store a frozen version's exports (frozen-exports.ts).
import type { Db } from "../../db/client.ts";
import type { DatasetSummary, VersionSummary } from "../../db/repositories/datasets/datasets.ts";
import { buildManifest, manifestSchema, type LeakageOverride, type Manifest, type ManifestItem } from "../../domain/curation/manifest.ts";
import { TOKENIZER_NAME } from "../../domain/curation/tokens.ts";
import type { ExportFormat } from "../../domain/curation/types.ts";
import { datasetCard } from "../../exporters/card.ts";
import { createProvenanceWriter, createWriter, provenanceFile } from "../../exporters/registry.ts";
import { resolveOptions, type ExportOptions } from "../../exporters/chat/options.ts";
import { loadVersionItems, READ_BATCH, type VersionRef } from "./items.ts";
import { itemTokens } from "./summarize.ts";

/** Flush lines to the consumer in pieces of about this size (fewer, larger writes). */
const PIECE = 256 * 1024;

/**
 * Lines encoded into UTF-8 pieces of about PIECE bytes, each line written straight into the piece's buffer. (Joining
 * lines into one string and encoding that was the largest single cost after the read: one line with a non-Latin-1
 * character — a progress bar — makes the whole joined piece a two-byte string, whose encoding is ~10× slower than
 * encoding the lines one by one, most of which are one-byte.) Pieces end at line ends, so each is valid UTF-8.
 */
class PieceEncoder {
  private buf = Buffer.allocUnsafe(PIECE);
  private used = 0;

  /** Adds a line; returns the pieces so far when the line did not fit beside them. */
  add(line: string): Buffer | null {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const room = line.length * 3;
    if (this.used + room <= this.buf.length) {
      this.used += this.buf.write(line, this.used, "utf8");
      return null;
    }
    const full = this.take();
    // A line longer than a piece gets a buffer of its own size.
    if (room > this.buf.length) this.buf = Buffer.allocUnsafe(room);
    this.used = this.buf.write(line, 0, "utf8");
    return full;
  }

  /** The piece so far (null when empty); later lines go to a fresh buffer, the returned one is the caller's. */
  take(): Buffer | null {
    if (!this.used) return null;
    const piece = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(PIECE);
    this.used = 0;
    return piece;
  }
}

export interface RenderedExport {
  filename: string;
  contentType: string;
  /** The data, in UTF-8 pieces ending at line ends; `onRows` reports progress (items done). */
  pieces(onRows?: (done: number) => void): AsyncGenerator<Buffer | string>;
  /** The dataset card; for a draft it needs the manifest gathered while `pieces` ran, so call it afterwards. */
  card(): string;
}

/**
 * The stored rules as the card prints them: parsed, not validated — the card only shows them (escaped), and validating
 * a selection of 100,000 ids with zod cost more than writing a labels file of that dataset from memory.
 */
function rulesForCard(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const slug = (s: string) => s.replace(/[^\w.-]+/g, "_");

/** The stored manifest of a frozen version (null for a draft). */
export const storedManifest = (v: VersionSummary): Manifest | null => (v.manifest ? manifestSchema.parse(JSON.parse(v.manifest)) : null);

/** The data file's name for a version and format. */
export const exportFilename = (d: DatasetSummary, v: VersionSummary, format: ExportFormat) =>
  `${slug(d.name)}-${v.frozenAt ? `v${v.version}` : "draft"}.${format}.${format === "labels-csv" ? "csv" : "jsonl"}`;

/**
 * `rules`: the dataset's stored rules (findDatasetRules), which the card shows. `part: "provenance"` renders the
 * provenance sidecar of a chat format instead of its data (one line per row of the data, same order).
 */
export function renderExport(
  db: Db,
  d: DatasetSummary,
  v: VersionSummary,
  format: ExportFormat,
  override: LeakageOverride | null,
  rules: string | null,
  options: ExportOptions = resolveOptions(format, undefined),
  part: "data" | "provenance" = "data",
): RenderedExport {
  const stored = storedManifest(v);
  const data = createWriter(format, options);
  const writer = part === "provenance" ? createProvenanceWriter(data) : data;
  const ref: VersionRef = {
    dataset: d.name,
    versionId: v.id,
    version: v.frozenAt ? v.version : null,
    contentHash: v.contentHash,
    frozen: v.frozenAt !== null,
  };
  const filename = part === "provenance" ? provenanceFile(exportFilename(d, v, format)) : exportFilename(d, v, format);
  const gathered: ManifestItem[] = [];
  return {
    filename,
    contentType: writer.contentType,
    async *pieces(onRows) {
      const enc = new PieceEncoder();
      if (writer.header) enc.add(writer.header);
      let done = 0;
      // Only the native format carries recordings; label formats need no steps (unless a draft's manifest counts tokens).
      const depth = { steps: format !== "labels-csv" && format !== "labels-jsonl" ? true : !stored, recording: format === "native" };
      for await (const batch of loadVersionItems(db, ref, READ_BATCH, depth)) {
        for (const it of batch) {
          for (const line of writer.lines(it)) {
            const full = enc.add(line);
            if (full) yield full;
          }
          if (!stored) {
            const t = it.item.trajectory;
            gathered.push({
              trajectoryId: it.item.dbId,
              kind: it.kind,
              task: `${t.task.benchmark}/${t.task.id}`,
              run: t.run.name,
              errorCategory: it.item.errorCategory,
              outcome: t.outcome,
              tokens: itemTokens(it),
              labels: [],
            });
          }
        }
        done += batch.length;
        onRows?.(done);
      }
      const last = enc.take();
      if (last) yield last;
    },
    card() {
      const manifest = stored ?? buildManifest(gathered, TOKENIZER_NAME, override);
      return datasetCard({
        dataset: d.name,
        description: d.description,
        version: ref.version,
        contentHash: ref.contentHash,
        frozenAt: v.frozenAt,
        format,
        dataFile: filename,
        manifest,
        rules: rulesForCard(rules),
        chat: data.chat,
      });
    },
  };
}
