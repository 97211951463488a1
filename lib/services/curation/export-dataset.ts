// Export a dataset version in one format, streamed: items are read a batch at a time and written as lines, so memory
// stays flat whatever the size. Output is deterministic (position order, stable ids, no timestamps of the export
// itself), so the same version exported twice is byte-identical. The dataset card is built beside the data.
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { findVersion, type DatasetSummary, type VersionSummary } from "../../db/repositories/datasets/datasets.ts";
import { buildManifest, manifestSchema, type Manifest, type ManifestItem } from "../../domain/curation/manifest.ts";
import { TOKENIZER_NAME } from "../../domain/curation/tokens.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../../domain/curation/types.ts";
import { datasetCard } from "../../exporters/card.ts";
import { createWriter } from "../../exporters/registry.ts";
import { AppError } from "../../errors.ts";
import { guardLeakage, overrideSchema } from "./leakage-guard.ts";
import { loadVersionItems, READ_BATCH, type VersionRef } from "./items.ts";
import { requireDataset } from "./manage-datasets.ts";
import { DATASET_NAME, parseStoredRules } from "./rules.ts";
import { itemTokens } from "./summarize.ts";

export const exportInputSchema = z.object({
  name: DATASET_NAME,
  /** A version number; omitted → the latest frozen version, or the current draft when none is frozen. */
  version: z.number().int().positive().optional(),
  format: z.enum(EXPORT_FORMATS, { message: `must be one of ${EXPORT_FORMATS.join(", ")}` }),
  override: overrideSchema.optional(),
});
export type ExportInput = z.input<typeof exportInputSchema>;

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

export interface OpenedExport {
  dataset: DatasetSummary;
  version: VersionSummary;
  format: ExportFormat;
  filename: string;
  contentType: string;
  total: number;
  /** The data, in pieces (UTF-8 buffers ending at line ends, or text); `onRows` reports progress (items done). */
  pieces(onRows?: (done: number) => void): AsyncGenerator<Buffer | string>;
  /** The dataset card; for a draft it needs the manifest gathered while `pieces` ran, so call it afterwards. */
  card(): string;
}

async function resolveVersion(ctx: ServiceContext, d: DatasetSummary, version: number | undefined): Promise<VersionSummary> {
  if (version !== undefined) {
    const v = await findVersion(ctx.db, d.id, version);
    if (!v) throw new AppError("NOT_FOUND", `dataset "${d.name}" has no version ${version}`);
    return v;
  }
  if (!d.latest) throw new AppError("NOT_FOUND", `dataset "${d.name}" has no items`);
  if (d.latest.frozenAt || d.frozenCount === 0) return d.latest;
  // The draft has changes; without a version number the latest frozen one is exported.
  for (let n = d.latest.version - 1; n >= 1; n--) {
    const v = await findVersion(ctx.db, d.id, n);
    if (v?.frozenAt) return v;
  }
  return d.latest;
}

const slug = (s: string) => s.replace(/[^\w.-]+/g, "_");

export async function openExport(ctx: ServiceContext, input: ExportInput): Promise<OpenedExport> {
  authorize(ctx, "dataset:export");
  const e = exportInputSchema.parse(input);
  const d = await requireDataset(ctx, e.name);
  const v = await resolveVersion(ctx, d, e.version);
  const stored: Manifest | null = v.manifest ? manifestSchema.parse(JSON.parse(v.manifest)) : null;
  // An override recorded when the version was frozen covers the tasks it named; anything held out since needs a new one.
  const recorded = stored?.leakageOverride ?? null;
  const override = await guardLeakage(ctx, v.id, "export", e.override ?? (recorded ? { reason: recorded.reason } : undefined));
  if (override && recorded && !e.override && override.tasks.some((t) => !recorded.tasks.includes(t))) {
    throw new AppError("CONFLICT", `refusing to export: tasks held out after version ${v.version} was frozen are in it (${override.tasks.filter((t) => !recorded.tasks.includes(t)).join(", ")}); override with a reason`);
  }
  await recordAudit(ctx, { action: "dataset.export", targetType: "dataset", targetId: d.name, details: { version: v.frozenAt ? v.version : "draft", format: e.format, contentHash: v.contentHash || null, heldOutOverride: override ? { tasks: override.tasks, reason: e.override?.reason ?? recorded?.reason ?? null } : null } });
  const writer = createWriter(e.format);
  const ref: VersionRef = { dataset: d.name, versionId: v.id, version: v.frozenAt ? v.version : null, contentHash: v.contentHash, frozen: v.frozenAt !== null };
  const filename = `${slug(d.name)}-${v.frozenAt ? `v${v.version}` : "draft"}.${e.format}.${writer.extension}`;
  const gathered: ManifestItem[] = [];

  return {
    dataset: d, version: v, format: e.format, filename, contentType: writer.contentType, total: v.itemCount,
    async *pieces(onRows) {
      const enc = new PieceEncoder();
      if (writer.header) enc.add(writer.header);
      let done = 0;
      // Only the native format carries recordings; label formats need no steps (unless a draft's manifest counts tokens).
      const depth = { steps: e.format !== "labels-csv" && e.format !== "labels-jsonl" ? true : !stored, recording: e.format === "native" };
      for await (const batch of loadVersionItems(ctx.db, ref, READ_BATCH, depth)) {
        for (const it of batch) {
          for (const line of writer.lines(it)) {
            const full = enc.add(line);
            if (full) yield full;
          }
          if (!stored) {
            const t = it.item.trajectory;
            gathered.push({ trajectoryId: it.item.dbId, kind: it.kind, task: `${t.task.benchmark}/${t.task.id}`, run: t.run.name, errorCategory: it.item.errorCategory, outcome: t.outcome, tokens: itemTokens(it), labels: [] });
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
      return datasetCard({ dataset: d.name, description: d.description, version: ref.version, contentHash: ref.contentHash, frozenAt: v.frozenAt, format: e.format, dataFile: filename, manifest, rules: parseStoredRules(d.rules) });
    },
  };
}

/** Write the data to `out` and the card to README.md beside it. Returns bytes written. */
export async function writeExportFiles(opened: OpenedExport, out: string, onRows?: (done: number) => void): Promise<{ bytes: number; cardPath: string }> {
  const dir = path.dirname(path.resolve(out));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new AppError("INVALID_INPUT", `--out: folder ${dir} does not exist`);
  // Written beside the target and renamed once complete and on disk: a killed or failed export never leaves a file
  // under the export's name that a training job could mistake for the whole dataset.
  const partial = `${out}.partial-${process.pid}`;
  // A few MB may wait for the disk, so the next pieces are built while earlier ones are written (with the default
  // 16 KB every 256 KB piece waited for its own write to finish before the next one was built).
  const stream = fs.createWriteStream(partial, { highWaterMark: 4 * 1024 * 1024 });
  let bytes = 0;
  try {
    for await (const piece of opened.pieces(onRows)) {
      // Encoded once: counting with Buffer.byteLength and then writing the string walked every piece twice.
      const chunk = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
      bytes += chunk.length;
      if (!stream.write(chunk)) await once(stream, "drain");
    }
    stream.end();
    await once(stream, "finish");
    syncFile(partial);
    fs.renameSync(partial, out);
  } catch (e) {
    stream.destroy();
    fs.rmSync(partial, { force: true });
    throw e;
  }
  const cardPath = path.join(path.dirname(out), "README.md");
  fs.writeFileSync(`${cardPath}.partial-${process.pid}`, opened.card());
  fs.renameSync(`${cardPath}.partial-${process.pid}`, cardPath);
  return { bytes, cardPath };
}

/** Flushes a written file to the disk (fsync works on the file, whichever descriptor asks). */
function syncFile(file: string): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
