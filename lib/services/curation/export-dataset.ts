// Export a dataset version in one format. A frozen version whose exports were stored when it was frozen streams the
// stored bytes (frozen-exports.ts); a draft, or a version frozen before its exports were stored, is rendered from its
// items (render-export.ts). Either way the bytes are the same and the same version exported twice is byte-identical.
// The dataset card is built beside the data.
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { z } from "zod";
import { authorize, type ServiceContext } from "../context.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { findDatasetRules, type DatasetSummary, type VersionSummary } from "../../db/repositories/datasets/datasets.ts";
import { listHeldOut } from "../../db/repositories/datasets/candidates.ts";
import { openExportReader, type ExportTarget } from "../../db/repositories/datasets/export-read/index.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../../domain/curation/types.ts";
import { AppError } from "../../errors.ts";
import { startFrozenRead, storedKey, type FrozenRead } from "./frozen-exports.ts";
import { guardLeakage, overrideSchema } from "./leakage-guard.ts";
import { renderExport, storedManifest } from "./render-export.ts";
import { exportOptionsSchema, isDefaultOptions, resolveOptions, type ExportOptions } from "../../exporters/chat/options.ts";
import { DATASET_INFO_FILE, provenanceFile, SIDECARS } from "../../exporters/registry.ts";
import { llamaFactoryDatasetInfo } from "../../exporters/sharegpt.ts";
import { DATASET_NAME } from "./rules.ts";

export { exportOptionsSchema };
export { CONTEXT_MODES, OBSERVATION_MODES } from "../../exporters/chat/options.ts";

export const exportInputSchema = z.object({
  name: DATASET_NAME,
  /** A version number; omitted → the latest frozen version, or the current draft when none is frozen. */
  version: z.number().int().positive().optional(),
  format: z.enum(EXPORT_FORMATS, { message: `must be one of ${EXPORT_FORMATS.join(", ")}` }),
  override: overrideSchema.optional(),
  /** Chat formats: observations rendered (default) or raw, the failed context as turns or prompt, a token budget. */
  options: exportOptionsSchema.partial().optional(),
});
export type ExportInput = z.input<typeof exportInputSchema>;

export interface OpenedExport {
  dataset: DatasetSummary;
  version: VersionSummary;
  format: ExportFormat;
  filename: string;
  contentType: string;
  total: number;
  /** Whether the bytes come from the export stored when the version was frozen (else they are rendered from the items). */
  stored: boolean;
  /** The data, in pieces (UTF-8 buffers ending at line ends, or text); `onRows` reports progress (items done). */
  pieces(onRows?: (done: number) => void): AsyncGenerator<Buffer | string>;
  /** The dataset card; for a draft it needs the manifest gathered while `pieces` ran, so call it afterwards. */
  card(): string;
  /** The chat options the export was written with (null for native and label formats). */
  options: ExportOptions | null;
  /** Files written beside the data: the provenance sidecar (streamed, rendered from the items) and dataset_info.json. */
  sidecars: Sidecar[];
  /**
   * Releases the connection a stored export is read on, if `pieces` was not read to the end (reading it to the end,
   * or abandoning it part way, releases it too). Call it when the export is opened and then not written.
   */
  close(): Promise<void>;
}

export interface Sidecar {
  kind: "provenance" | "dataset-info";
  filename: string;
  pieces(): AsyncGenerator<Buffer | string>;
}

async function* single(text: string): AsyncGenerator<string> {
  yield text;
}

/** A stored export's bytes when the version has them under `key`, else the rendering (on a reader of its own). */
async function* storedOrRendered(
  ctx: ServiceContext,
  versionId: string,
  key: string,
  render: () => AsyncGenerator<Buffer | string>,
): AsyncGenerator<Buffer | string> {
  const reader = openExportReader(ctx.db);
  let row;
  try {
    row = await reader.frozenExport(versionId, key);
  } catch (err) {
    await reader.close();
    throw err;
  }
  if (!row) {
    await reader.close();
    yield* render();
    return;
  }
  yield* startFrozenRead(reader, versionId, key, row).pieces();
}

/** The version an export without a number takes: the latest if frozen or if none is, else the latest frozen one. */
function resolveVersion(t: ExportTarget, version: number | undefined): VersionSummary {
  const d = t.dataset;
  if (version !== undefined) {
    if (!t.requested) throw new AppError("NOT_FOUND", `dataset "${d.name}" has no version ${version}`);
    return t.requested;
  }
  if (!d.latest) throw new AppError("NOT_FOUND", `dataset "${d.name}" has no items`);
  // The draft has changes; without a version number the latest frozen one is exported.
  return d.latest.frozenAt || !t.latestFrozen ? d.latest : t.latestFrozen;
}

export async function openExport(ctx: ServiceContext, input: ExportInput, opts: { audit?: boolean } = {}): Promise<OpenedExport> {
  authorize(ctx, "dataset:export");
  const e = exportInputSchema.parse(input);
  // The export's own reader connects at once; the dataset, the version and the stored export are read on it (one
  // snapshot), and a stored export's first chunks are read while the export is checked and audited below.
  const reader = openExportReader(ctx.db);
  const heldOut = listHeldOut(ctx.db); // for the leakage guard, read while the reader connects
  heldOut.catch(() => undefined); // awaited by the guard; a failure before it is reported by what failed first
  let read: FrozenRead | null = null;
  try {
    const target = await reader.target(e.name, e.version);
    if (!target) throw new AppError("NOT_FOUND", `no dataset named "${e.name}"`);
    const d = target.dataset;
    const v = resolveVersion(target, e.version);
    const options = resolveOptions(e.format, e.options);
    // Stored exports were written with the default options; any other choice is rendered from the items.
    const frozen = v.frozenAt && isDefaultOptions(e.format, options) ? await reader.frozenExport(v.id, e.format) : null;
    if (frozen) read = startFrozenRead(reader, v.id, e.format, frozen);
    else await reader.close(); // a draft (or a version stored before exports were) is rendered, on a reader of its own
    // An override recorded when the version was frozen covers the tasks it named; anything held out since needs a new one.
    const recorded = storedManifest(v)?.leakageOverride ?? null;
    const override = await guardLeakage(ctx, v.id, "export", e.override ?? (recorded ? { reason: recorded.reason } : undefined), heldOut);
    if (override && recorded && !e.override && override.tasks.some((t) => !recorded.tasks.includes(t))) {
      throw new AppError(
        "CONFLICT",
        `refusing to export: tasks held out after version ${v.version} was frozen are in it (${override.tasks.filter((t) => !recorded.tasks.includes(t)).join(", ")}); override with a reason`,
      );
    }
    // A background export is audited once, when it is asked for (not again by the worker that writes it).
    if (opts.audit !== false)
      await recordAudit(ctx, {
        action: "dataset.export",
        targetType: "dataset",
        targetId: d.name,
        details: {
          version: v.frozenAt ? v.version : "draft",
          format: e.format,
          ...(e.options ? { options } : {}),
          contentHash: v.contentHash || null,
          fileSha256: frozen?.sha256 ?? null,
          heldOutOverride: override ? { tasks: override.tasks, reason: e.override?.reason ?? recorded?.reason ?? null } : null,
        },
      });
    // A stored export has its card; anything rendered needs the dataset's rules (up to megabytes of ids) for one.
    const rendered = renderExport(
      ctx.db,
      d,
      v,
      e.format,
      override,
      frozen?.card != null ? null : await findDatasetRules(ctx.db, d.id),
      options,
    );
    const stored = read;
    const sidecars: Sidecar[] = (SIDECARS[e.format] ?? []).map((kind) => {
      if (kind === "dataset-info")
        return { kind, filename: DATASET_INFO_FILE, pieces: () => single(llamaFactoryDatasetInfo(d.name, rendered.filename)) };
      const prov = renderExport(ctx.db, d, v, e.format, override, null, options, "provenance");
      // Stored beside a frozen version's data (default options): streamed like the data; otherwise rendered.
      return {
        kind,
        filename: prov.filename,
        pieces: () => (frozen ? storedOrRendered(ctx, v.id, storedKey(e.format, "provenance"), prov.pieces) : prov.pieces()),
      };
    });
    const chat = e.format === "openai" || e.format === "trl" || e.format === "sharegpt" || e.format === "axolotl";
    return {
      dataset: d,
      version: v,
      format: e.format,
      filename: rendered.filename,
      contentType: rendered.contentType,
      total: v.itemCount,
      stored: stored !== null,
      options: chat ? options : null,
      sidecars,
      pieces: stored ? (onRows) => stored.pieces(onRows) : (onRows) => rendered.pieces(onRows),
      card: () => frozen?.card ?? rendered.card(),
      close: () => stored?.close() ?? Promise.resolve(),
    };
  } catch (err) {
    await (read ? read.close() : reader.close());
    throw err;
  }
}

/**
 * Write the data to `out`, the card to README.md beside it and the format's sidecars (provenance, dataset_info.json)
 * beside it too. Returns bytes of data written and the paths of the other files.
 */
export async function writeExportFiles(
  opened: OpenedExport,
  out: string,
  onRows?: (done: number) => void,
): Promise<{ bytes: number; cardPath: string; sidecarPaths: string[] }> {
  const dir = path.dirname(path.resolve(out));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    await opened.close();
    throw new AppError("INVALID_INPUT", `--out: folder ${dir} does not exist`);
  }
  let bytes: number;
  try {
    bytes = await writeStream(opened.pieces(onRows), out);
  } finally {
    await opened.close();
  }
  const sidecarPaths: string[] = [];
  for (const s of opened.sidecars) {
    // The provenance sidecar is named after the data file actually written (the CLI's --out may rename it).
    const file = path.join(dir, s.kind === "provenance" ? provenanceFile(path.basename(out)) : s.filename);
    await writeStream(s.kind === "dataset-info" ? datasetInfoFor(opened, out) : s.pieces(), file);
    sidecarPaths.push(file);
  }
  const cardPath = path.join(dir, "README.md");
  fs.writeFileSync(`${cardPath}.partial-${process.pid}`, opened.card());
  fs.renameSync(`${cardPath}.partial-${process.pid}`, cardPath);
  return { bytes, cardPath, sidecarPaths };
}

async function* datasetInfoFor(opened: OpenedExport, out: string): AsyncGenerator<string> {
  yield llamaFactoryDatasetInfo(opened.dataset.name, path.basename(out));
}

/** Pieces to `out`, all or nothing: returns the bytes written. */
async function writeStream(pieces: AsyncGenerator<Buffer | string>, out: string): Promise<number> {
  // Written beside the target and renamed once complete and on disk: a killed or failed export never leaves a file
  // under the export's name that a training job could mistake for the whole dataset.
  const partial = `${out}.partial-${process.pid}`;
  // A few MB may wait for the disk, so the next pieces are built while earlier ones are written (with the default
  // 16 KB every 256 KB piece waited for its own write to finish before the next one was built).
  const stream = fs.createWriteStream(partial, { highWaterMark: 4 * 1024 * 1024 });
  let bytes = 0;
  try {
    for await (const piece of pieces) {
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
    // A stream destroyed before its file finished opening still creates the file, so wait until it is closed
    // before removing it: a failure on the first piece otherwise left the partial file behind.
    if (!stream.closed) await new Promise<void>((resolve) => stream.destroy().once("close", resolve));
    fs.rmSync(partial, { force: true });
    throw e;
  }
  return bytes;
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
