// A frozen version's exports are stored once and streamed afterwards, on both databases: the stored bytes equal the
// rendered ones in every format (segments, recordings and labels included), later changes to the data do not reach a
// frozen version's export, a store cut short is never read as whole, a damaged one fails without leaving a file, and
// only a curator (dataset:write) stores them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { createDataset, editDatasetItems } from "../../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../../lib/services/curation/freeze-dataset.ts";
import { deleteDataset } from "../../lib/services/curation/delete-dataset.ts";
import { openExport, writeExportFiles, type ExportInput } from "../../lib/services/curation/export-dataset.ts";
import { storeFrozenExports } from "../../lib/services/curation/frozen-exports.ts";
import { renderExport } from "../../lib/services/curation/render-export.ts";
import { getDatasetDetail } from "../../lib/services/curation/view-datasets.ts";
import { EXPORT_FORMATS } from "../../lib/domain/curation/types.ts";
import { findDatasetByName, findVersion } from "../../lib/db/repositories/datasets/datasets.ts";
import type { ServiceContext } from "../../lib/services/context.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-frozen-exports-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function collect(pieces: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of pieces) parts.push(typeof p === "string" ? Buffer.from(p, "utf8") : p);
  return Buffer.concat(parts);
}

/** The export as the app serves it, and whether it came from the stored bytes. */
async function exported(
  ctx: ServiceContext,
  input: ExportInput,
): Promise<{ bytes: Buffer; stored: boolean; progress: number[]; provenance: Buffer | null }> {
  const opened = await openExport(ctx, input);
  const progress: number[] = [];
  const bytes = await collect(opened.pieces((n) => progress.push(n)));
  const sidecar = opened.sidecars.find((s) => s.kind === "provenance");
  return { bytes, stored: opened.stored, progress, provenance: sidecar ? await collect(sidecar.pieces()) : null };
}

/** The same version rendered from its items now. */
async function rendered(ctx: ServiceContext, name: string, version: number, format: (typeof EXPORT_FORMATS)[number]): Promise<Buffer> {
  const d = (await findDatasetByName(ctx.db, name))!;
  const v = (await findVersion(ctx.db, d.id, version))!;
  return collect(renderExport(ctx.db, d, v, format, null, null).pieces());
}

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`stored exports of frozen versions (${p.title})`, () => {
    let t: TestDatabase;
    // Recordings on half of them, so the native format carries recording chunks.
    const generated = [...generateTrajectories({ count: 40, seed: 21, recordingRate: 0.5 })];

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      const rows = generated.map((r, i) => normalized(r, "native", "t.jsonl", i + 1));
      expect((await importTrajectories(t.ctx, rows, { origin: "cli", indexSearch: false })).imported).toBe(generated.length);
      // A label on every attempt, so the label formats and the native rows carry labels captured at freezing.
      const annotator = await t.as("ann-1", "annotator");
      const quality = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "recovery-quality" } });
      const attempts = await t.db.trajectory.findMany({ where: { parentId: { not: null } }, select: { id: true }, orderBy: { id: "asc" } });
      for (const [i, a] of attempts.entries()) {
        await t.db.annotation.create({
          data: {
            schemaId: quality.id,
            annotatorId: annotator.actor.id,
            targetType: "attempt",
            targetKey: `attempt:${a.id}`,
            trajectoryId: a.id,
            value: String(i % 4),
            comment: i === 0 ? 'a "quoted",\ncomment' : null,
          },
        });
      }
      await createDataset(t.ctx, { name: "all", rules: { source: "filter", filter: "" } });
      await createDataset(t.ctx, { name: "segments", rules: { source: "filter", filter: "", kind: "segment" } });
      await freezeDataset(t.ctx, { name: "all" });
      await freezeDataset(t.ctx, { name: "segments" });
    }, 180_000);
    afterAll(async () => t?.drop());

    it("stores every format; the stored bytes equal the rendered ones, and exports then stream them", async () => {
      for (const name of ["all", "segments"]) {
        const before = new Map<string, Buffer>();
        const provenanceBefore = new Map<string, Buffer | null>();
        for (const format of EXPORT_FORMATS) {
          const live = await exported(t.ctx, { name, format });
          expect(live.stored).toBe(false);
          before.set(format, live.bytes);
          provenanceBefore.set(format, live.provenance);
        }
        const stored = await storeFrozenExports(t.ctx, { name, version: 1 });
        expect(stored.map((s) => s.format)).toEqual([...EXPORT_FORMATS]);
        expect(stored.every((s) => s.stored)).toBe(true);
        for (const format of EXPORT_FORMATS) {
          const now = await exported(t.ctx, { name, format });
          expect(now.stored).toBe(true);
          expect(now.bytes.length).toBeGreaterThan(0);
          expect(now.bytes.equals(before.get(format)!)).toBe(true);
          // A chat format's provenance sidecar is stored beside it, with the same bytes.
          expect(now.provenance === null ? null : now.provenance.equals(provenanceBefore.get(format)!)).toBe(
            provenanceBefore.get(format) === null ? null : true,
          );
          expect(now.progress.at(-1)).toBe((await getDatasetDetail(t.ctx, name)).versions[0]!.itemCount);
        }
        // Storing again does nothing.
        expect((await storeFrozenExports(t.ctx, { name, version: 1 })).some((s) => s.stored)).toBe(false);
      }
      const native = (await exported(t.ctx, { name: "all", format: "native" })).bytes.toString("utf8");
      expect(native).toContain('"recording"');
      expect(native).toContain('a \\"quoted\\",\\ncomment');
      // Seven formats and four provenance sidecars per dataset, each rendered twice: more than a default test's minute
      // on a loaded machine.
    }, 240_000);

    it("writes a stored export to a file byte for byte, with the card beside it", async () => {
      const out = path.join(tmp, `${p.provider}-all.jsonl`);
      const opened = await openExport(t.ctx, { name: "all", format: "openai" });
      expect(opened.stored).toBe(true);
      const { bytes, cardPath } = await writeExportFiles(opened, out);
      expect(fs.readFileSync(out).equals((await exported(t.ctx, { name: "all", format: "openai" })).bytes)).toBe(true);
      expect(bytes).toBe(fs.statSync(out).size);
      expect(fs.readFileSync(cardPath, "utf8")).toContain("all");
    });

    it("serves the card stored with the export: a description edited after storing does not change it", async () => {
      const before = await openExport(t.ctx, { name: "all", format: "sharegpt" });
      expect(before.stored).toBe(true);
      for await (const piece of before.pieces()) void piece;
      const card = before.card();
      expect(card).toContain("ShareGPT");
      expect(card).toContain('"source": "filter"');
      const d = await t.db.dataset.findUniqueOrThrow({ where: { name: "all" } });
      await t.db.dataset.update({ where: { id: d.id }, data: { description: "EDITED AFTER STORING" } });
      try {
        const after = await openExport(t.ctx, { name: "all", format: "sharegpt" });
        expect(after.card()).toBe(card);
        await after.close(); // opened for its card only: nothing is written
        // Rendered now (as an export stored before cards were kept is), the card would show the edit.
        const v = (await findVersion(t.ctx.db, d.id, 1))!;
        const summary = (await findDatasetByName(t.ctx.db, "all"))!;
        expect(renderExport(t.ctx.db, summary, v, "sharegpt", null, d.rules).card()).toContain("EDITED AFTER STORING");
      } finally {
        await t.db.dataset.update({ where: { id: d.id }, data: { description: d.description } });
      }
    });

    it("keeps a frozen version's export as it was when the data changes later; a draft shows the change", async () => {
      const before = (await exported(t.ctx, { name: "all", format: "openai" })).bytes;
      const step = await t.db.step.findFirstOrThrow({
        where: { observation: { not: null } },
        orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
      });
      await t.db.step.update({
        where: { trajectoryId_index: { trajectoryId: step.trajectoryId, index: step.index } },
        data: { observation: "EDITED AFTER FREEZING" },
      });
      try {
        const after = await exported(t.ctx, { name: "all", format: "openai" });
        expect(after.stored).toBe(true);
        expect(after.bytes.equals(before)).toBe(true);
        // Rendering the same version now would differ: the stored bytes are what keeps it frozen.
        expect((await rendered(t.ctx, "all", 1, "openai")).toString("utf8")).toContain("EDITED AFTER FREEZING");
      } finally {
        await t.db.step.update({
          where: { trajectoryId_index: { trajectoryId: step.trajectoryId, index: step.index } },
          data: { observation: step.observation },
        });
      }
    });

    it("never lets a label added after freezing into the frozen version, stored or rendered", async () => {
      const stored = await exported(t.ctx, { name: "all", format: "labels-jsonl" });
      expect(stored.stored).toBe(true);
      // A trajectory that had no label when "all" was frozen gets one now.
      const unlabelled = await t.db.trajectory.findFirstOrThrow({
        where: { parentId: null, annotations: { none: {} } },
        orderBy: { id: "asc" },
      });
      const annotator = await t.as("ann-2", "annotator");
      const category = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
      await t.db.annotation.create({
        data: {
          schemaId: category.id,
          annotatorId: annotator.actor.id,
          targetType: "step_range",
          targetKey: `steps:${unlabelled.id}:0-1`,
          trajectoryId: unlabelled.id,
          stepStart: 0,
          stepEnd: 1,
          value: "LABELLED-AFTER-FREEZE",
        },
      });
      try {
        for (const format of ["labels-jsonl", "native"] as const) {
          const now = await rendered(t.ctx, "all", 1, format);
          expect(now.toString("utf8")).not.toContain("LABELLED-AFTER-FREEZE");
          expect(now.equals((await exported(t.ctx, { name: "all", format })).bytes)).toBe(true);
        }
      } finally {
        await t.db.annotation.deleteMany({ where: { value: "LABELLED-AFTER-FREEZE" } });
      }
    });

    it("never reads a store cut short as whole, and replaces it when storing again", async () => {
      const v = await t.db.datasetVersion.findFirstOrThrow({ where: { dataset: { name: "all" }, version: 1 } });
      const expected = (await exported(t.ctx, { name: "all", format: "sharegpt" })).bytes;
      // A writer that died after its first chunk: chunks without the completion row.
      await t.db.frozenExport.delete({ where: { versionId_format: { versionId: v.id, format: "sharegpt" } } });
      await t.db.frozenExportChunk.deleteMany({ where: { versionId: v.id, format: "sharegpt", seq: { gt: 0 } } });
      const cut = await exported(t.ctx, { name: "all", format: "sharegpt" });
      expect(cut.stored).toBe(false); // rendered from the items instead
      expect(cut.bytes.equals(expected)).toBe(true);
      const [again] = await storeFrozenExports(t.ctx, { name: "all", version: 1, formats: ["sharegpt"] });
      expect(again).toMatchObject({ format: "sharegpt", stored: true, bytes: expected.length });
      const now = await exported(t.ctx, { name: "all", format: "sharegpt" });
      expect(now.stored).toBe(true);
      expect(now.bytes.equals(expected)).toBe(true);
    });

    it("fails on a damaged chunk and leaves no file under the export's name", async () => {
      const v = await t.db.datasetVersion.findFirstOrThrow({ where: { dataset: { name: "segments" }, version: 1 } });
      const chunk = await t.db.frozenExportChunk.findFirstOrThrow({
        where: { versionId: v.id, format: "openai" },
        orderBy: { seq: "asc" },
      });
      const damaged = Uint8Array.from(chunk.data);
      const at = Math.floor(damaged.length / 2);
      damaged[at] = damaged[at]! ^ 0xff;
      await t.db.frozenExportChunk.update({
        where: { versionId_format_seq: { versionId: v.id, format: "openai", seq: chunk.seq } },
        data: { data: damaged },
      });
      const out = path.join(tmp, `${p.provider}-damaged.jsonl`);
      try {
        await expect(writeExportFiles(await openExport(t.ctx, { name: "segments", format: "openai" }), out)).rejects.toThrow(
          /stored openai export of this version is damaged/,
        );
        expect(fs.existsSync(out)).toBe(false);
        expect(fs.readdirSync(tmp).filter((f) => f.includes("damaged"))).toEqual([]);
        // Storing again without replace keeps the damaged copy; with replace the export is whole again.
        expect((await storeFrozenExports(t.ctx, { name: "segments", version: 1, formats: ["openai"] }))[0]!.stored).toBe(false);
        const [again] = await storeFrozenExports(t.ctx, { name: "segments", version: 1, formats: ["openai"], replace: true });
        expect(again!.stored).toBe(true);
        const whole = await exported(t.ctx, { name: "segments", format: "openai" });
        expect(whole.stored).toBe(true);
        expect(whole.bytes.equals(await rendered(t.ctx, "segments", 1, "openai"))).toBe(true);
      } finally {
        await t.db.frozenExportChunk.update({
          where: { versionId_format_seq: { versionId: v.id, format: "openai", seq: chunk.seq } },
          data: { data: chunk.data },
        });
      }
    });

    it("splits an export into chunks in order and reports progress through them", async () => {
      await createDataset(t.ctx, { name: "chunked", rules: { source: "filter", filter: "" } });
      await freezeDataset(t.ctx, { name: "chunked" });
      const expected = await rendered(t.ctx, "chunked", 1, "native");
      const seen: number[] = [];
      const [native] = await storeFrozenExports(
        t.ctx,
        { name: "chunked", version: 1, formats: ["native"], chunkBytes: 16 * 1024 },
        (_f, done) => seen.push(done),
      );
      expect(native).toMatchObject({ stored: true, bytes: expected.length });
      expect(native?.chunks).toBeGreaterThan(3);
      const rows = await t.db.frozenExportChunk.findMany({
        where: { format: "native", version: { dataset: { name: "chunked" } } },
        orderBy: { seq: "asc" },
        select: { seq: true, size: true, rowsEnd: true },
      });
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i));
      expect(rows.reduce((n, r) => n + r.size, 0)).toBe(expected.length);
      expect(rows.every((r, i) => i === 0 || r.rowsEnd >= rows[i - 1]!.rowsEnd)).toBe(true);
      expect(rows.at(-1)!.rowsEnd).toBe(generated.length);
      expect(seen.at(-1)).toBe(generated.length);
      const now = await exported(t.ctx, { name: "chunked", format: "native" });
      expect(now.stored).toBe(true);
      expect(now.bytes.equals(expected)).toBe(true);
      expect(now.progress).toEqual(rows.map((r) => r.rowsEnd));
    });

    it("is refused for a draft, and for a role that cannot edit datasets", async () => {
      const first = await t.db.datasetItem.findFirstOrThrow({
        where: { datasetVersion: { dataset: { name: "all" } } },
        orderBy: { position: "asc" },
      });
      await editDatasetItems(t.ctx, {
        name: "all",
        expectedRevision: (await getDatasetDetail(t.ctx, "all")).dataset.revision,
        remove: [first.trajectoryId],
      });
      await expect(storeFrozenExports(t.ctx, { name: "all", version: 2 })).rejects.toMatchObject({ code: "CONFLICT" });
      // The draft's export is rendered from its items.
      expect((await exported(t.ctx, { name: "all", version: 2, format: "openai" })).stored).toBe(false);
      const viewer = await t.as("viewer-1", "viewer");
      await expect(storeFrozenExports(viewer, { name: "all", version: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    });

    it("deletes a dataset's stored exports with the dataset", async () => {
      const v = await t.db.datasetVersion.findFirstOrThrow({ where: { dataset: { name: "segments" }, version: 1 } });
      expect(await t.db.frozenExportChunk.count({ where: { versionId: v.id } })).toBeGreaterThan(0);
      await deleteDataset(t.ctx, { name: "segments", expectedRevision: (await getDatasetDetail(t.ctx, "segments")).dataset.revision });
      expect(await t.db.frozenExportChunk.count({ where: { versionId: v.id } })).toBe(0);
      expect(await t.db.frozenExport.count({ where: { versionId: v.id } })).toBe(0);
    });
  });
}
