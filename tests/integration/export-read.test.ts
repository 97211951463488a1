// The export reader (raw SQL on the provider's own connection) on both databases: a pass that is abandoned part way
// (a cancelled download, a failing writer) closes its connection — on PostgreSQL no session is left idle in its
// read-only transaction — and batches come back in position order with their steps in index order. An export opens
// on it too: its dataset and versions equal the Prisma repository's, and an export opened but never written (or
// refused) leaves no connection behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { createDataset, editDatasetItems } from "../../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../../lib/services/curation/freeze-dataset.ts";
import { openExport, writeExportFiles } from "../../lib/services/curation/export-dataset.ts";
import { storeFrozenExports } from "../../lib/services/curation/frozen-exports.ts";
import { loadVersionItems } from "../../lib/services/curation/items.ts";
import { openExportReader } from "../../lib/db/repositories/datasets/export-read/index.ts";
import { findDatasetByName, findVersion } from "../../lib/db/repositories/datasets/datasets.ts";
import { findFrozenExport } from "../../lib/db/repositories/datasets/frozen-exports.ts";

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`export reader (${p.title})`, () => {
    let t: TestDatabase;
    let versionId: string;
    const generated = [...generateTrajectories({ count: 24, seed: 3, recordingRate: 0.5 })];

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await importTrajectories(
        t.ctx,
        generated.map((g, i) => normalized(g, "native", "g.jsonl", i + 1)),
        { origin: "cli", indexSearch: false },
      );
      const { dataset } = await createDataset(t.ctx, { name: "all", rules: { source: "filter", filter: "" } });
      versionId = dataset.latest!.id;
    }, 120_000);
    afterAll(async () => {
      await t?.drop();
    });

    const ref = () => ({ dataset: "all", versionId, version: null, contentHash: null, frozen: false });

    it("reads every item once, in position order, steps in index order, recordings where stored", async () => {
      const positions: number[] = [];
      let recordings = 0;
      for await (const batch of loadVersionItems(t.db, ref(), 5)) {
        expect(batch.length).toBeLessThanOrEqual(5);
        for (const it of batch) {
          positions.push(it.position);
          const steps = it.item.trajectory.steps;
          const stored = await t.db.step.findMany({
            where: { trajectoryId: it.item.dbId },
            orderBy: { index: "asc" },
            select: { action: true, observation: true },
          });
          expect(steps.map((s) => [s.action ?? null, s.observation ?? null])).toEqual(stored.map((s) => [s.action, s.observation]));
          if (it.item.trajectory.recording) recordings++;
        }
      }
      expect(positions).toEqual([...Array(generated.length).keys()]);
      expect(recordings).toBe(await t.db.recording.count());
      expect(recordings).toBeGreaterThan(0);
    });

    it("closes its connection when the caller stops after the first batch", async () => {
      for await (const batch of loadVersionItems(t.db, ref(), 5)) {
        expect(batch).toHaveLength(5);
        break;
      }
      if (p.provider === "postgresql") {
        const left = await t.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        );
        expect(left[0]!.n).toBe(0);
      }
      // The next pass (a new reader) still works.
      let n = 0;
      for await (const batch of loadVersionItems(t.db, ref(), 10)) n += batch.length;
      expect(n).toBe(generated.length);
    });

    it("opens an export with the dataset and versions the Prisma repository gives, on its own connection", async () => {
      const reader = openExportReader(t.db);
      try {
        const draftOnly = await reader.target("all", undefined);
        expect(draftOnly!.dataset).toEqual(await findDatasetByName(t.db, "all"));
        expect(draftOnly!.latestFrozen).toBeNull();
        expect(await reader.target("no-such-dataset", undefined)).toBeNull();
      } finally {
        await reader.close();
      }
      // Version 1 frozen, then a draft (version 2) that differs from it.
      await freezeDataset(t.ctx, { name: "all" });
      const d = (await findDatasetByName(t.db, "all"))!;
      const one = await t.db.datasetItem.findFirstOrThrow({ where: { datasetVersionId: versionId }, select: { trajectoryId: true } });
      const edit = await editDatasetItems(t.ctx, { name: "all", expectedRevision: d.revision, add: [], remove: [one.trajectoryId] });
      expect(edit.removed).toBe(1);
      const again = openExportReader(t.db);
      try {
        const target = (await again.target("all", 1))!;
        const now = (await findDatasetByName(t.db, "all"))!;
        expect(now.latest!.version).toBe(2);
        expect(now.frozenCount).toBe(1);
        expect(target.dataset).toEqual(now);
        expect(target.requested).toEqual(await findVersion(t.db, now.id, 1));
        expect(target.latestFrozen).toEqual(await findVersion(t.db, now.id, 1));
        expect(target.requested!.frozenAt).not.toBeNull();
        expect((await again.target("all", 9))!.requested).toBeNull();
        expect(await again.frozenExport(target.requested!.id, "openai")).toEqual(
          await findFrozenExport(t.db, target.requested!.id, "openai"),
        );
      } finally {
        await again.close();
        await again.close(); // a second close does nothing
      }
      // Without a version number an export takes the latest frozen version, not the changed draft.
      const opened = await openExport(t.ctx, { name: "all", format: "labels-csv" });
      expect(opened.version.version).toBe(1);
      await opened.close();
    });

    it("leaves no connection behind when an export is opened and not written, or refused", async () => {
      await storeFrozenExports(t.ctx, { name: "all", version: 1, formats: ["labels-jsonl"] });
      const opened = await openExport(t.ctx, { name: "all", version: 1, format: "labels-jsonl" });
      expect(opened.stored).toBe(true);
      await opened.close();
      await expect(openExport(t.ctx, { name: "all", version: 7, format: "labels-jsonl" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(openExport(t.ctx, { name: "nothing-here", format: "labels-jsonl" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(
        writeExportFiles(await openExport(t.ctx, { name: "all", version: 1, format: "labels-jsonl" }), "/nonexistent-folder/out.jsonl"),
      ).rejects.toMatchObject({ code: "INVALID_INPUT" });
      if (p.provider === "postgresql") {
        const left = await t.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        );
        expect(left[0]!.n).toBe(0);
      }
      // Opened, then streamed to the end: the same bytes the store holds.
      const again = await openExport(t.ctx, { name: "all", version: 1, format: "labels-jsonl" });
      const parts: Buffer[] = [];
      for await (const piece of again.pieces()) parts.push(Buffer.from(piece));
      const v = (await findVersion(t.db, (await findDatasetByName(t.db, "all"))!.id, 1))!;
      const fe = (await findFrozenExport(t.db, v.id, "labels-jsonl"))!;
      expect(Buffer.concat(parts).length).toBe(fe.bytes);
      await expect(async () => {
        for await (const piece of again.pieces()) void piece;
      }).rejects.toThrow(/read once/);
    });
  });
}
