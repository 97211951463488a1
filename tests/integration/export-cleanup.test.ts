// Exported files are cleaned up on both databases: past the retention period, when a newer export of the same version
// and format exists, and when the dataset is deleted; the job then says why its file expired.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { createDataset } from "../../lib/services/curation/manage-datasets.ts";
import { deleteDataset } from "../../lib/services/curation/delete-dataset.ts";
import {
  getExportJob,
  listDatasetExports,
  openExportFile,
  startExportJob,
  sweepExports,
  type ExportJob,
} from "../../lib/services/curation/export-jobs.ts";
import { getDatasetDetail } from "../../lib/services/curation/view-datasets.ts";
import { listAuditEvents } from "../../lib/services/audit/list-audit-events.ts";
import type { ServiceContext } from "../../lib/services/context.ts";
import { fileStorage } from "../../lib/storage/index.ts";
import { startJobWorker } from "../../lib/services/jobs/start-worker.ts";

async function finished(ctx: ServiceContext, job: ExportJob): Promise<ExportJob> {
  let now = job;
  for (let i = 0; i < 400 && now.status === "running"; i++) {
    await new Promise((r) => setTimeout(r, 50));
    now = await getExportJob(ctx, job.id);
  }
  expect(now.status).toBe("succeeded");
  return now;
}
/** A finished job's storage folder, once its data file opens (the files of the run that completed live together under
 * "<export id>/<run id>/"). */
const folderOf = async (t: TestDatabase, id: string) => {
  (await openExportFile(t.ctx, id, "data")).body.destroy();
  const { filePath } = await t.db.exportJob.findUniqueOrThrow({ where: { id }, select: { filePath: true } });
  expect(filePath).toMatch(new RegExp(`^${id}/[0-9a-f-]{36}/`));
  return filePath!.slice(0, filePath!.lastIndexOf("/"));
};
/** Whether the storage still holds the job's files (its card, written with every export). A job is marked expired
 * first and its files deleted right after, so a check for "gone" waits a little for the deletion. */
const stored = async (id: string) => {
  const f = await fileStorage().open(`${id}/README.md`);
  f?.body.destroy();
  return f !== null;
};
const gone = async (id: string) => {
  for (let i = 0; i < 100 && (await stored(id)); i++) await new Promise((r) => setTimeout(r, 50));
  return !(await stored(id));
};

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`export file cleanup (${p.title})`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await startJobWorker(t.db);
      const rows = [...generateTrajectories({ count: 12, seed: 3 })].map((r, i) => normalized(r, "native", "t.jsonl", i + 1));
      await importTrajectories(t.ctx, rows, { origin: "cli", indexSearch: false });
      await createDataset(t.ctx, { name: "keep", rules: { source: "filter", filter: "" } });
      await createDataset(t.ctx, { name: "doomed", rules: { source: "filter", filter: "outcome=passed" } });
    }, 120_000);
    afterAll(async () => t?.drop());

    it("deletes a file when a newer export of the same version and format finishes, and says so", async () => {
      const first = await finished(t.ctx, await startExportJob(t.ctx, { name: "keep", format: "openai" }));
      const folder = await folderOf(t, first.id);
      const other = await finished(t.ctx, await startExportJob(t.ctx, { name: "keep", format: "native" }));
      expect(await stored(folder)).toBe(true); // another format does not replace it
      const second = await finished(t.ctx, await startExportJob(t.ctx, { name: "keep", format: "openai" }));
      // The finishing job sweeps right after it is marked succeeded; give that a moment.
      let old = await getExportJob(t.ctx, first.id);
      for (let i = 0; i < 100 && old.status !== "expired"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        old = await getExportJob(t.ctx, first.id);
      }
      expect(await gone(folder)).toBe(true);
      expect(old).toMatchObject({ status: "expired", ready: false, filename: null, error: expect.stringMatching(/newer export/) });
      await expect(openExportFile(t.ctx, first.id, "data")).rejects.toThrow(/expired: replaced by a newer export/);
      expect((await getExportJob(t.ctx, second.id)).ready).toBe(true);
      expect((await getExportJob(t.ctx, other.id)).ready).toBe(true);
    });

    it("deletes files past the retention period (default 7 days) and only those", async () => {
      const [latest] = await listDatasetExports(t.ctx, "keep");
      const folder = await folderOf(t, latest!.id);
      await t.db.exportJob.update({ where: { id: latest!.id }, data: { finishedAt: new Date(Date.now() - 6.9 * 86_400_000) } });
      expect(await sweepExports(t.db)).toBe(0);
      expect(await stored(folder)).toBe(true);
      expect(await sweepExports(t.db, new Date(Date.now() + 0.2 * 86_400_000))).toBe(1);
      expect(await gone(folder)).toBe(true);
      const listed = (await listDatasetExports(t.ctx, "keep")).find((j) => j.id === latest!.id);
      expect(listed).toMatchObject({ status: "expired", error: expect.stringMatching(/after 7 days/) });
    });

    it("deleting a dataset removes its versions, jobs and files; a stale revision deletes nothing (409)", async () => {
      const job = await finished(t.ctx, await startExportJob(t.ctx, { name: "doomed", format: "labels-jsonl" }));
      const folder = await folderOf(t, job.id);
      const d = (await getDatasetDetail(t.ctx, "doomed")).dataset;
      await expect(deleteDataset(t.ctx, { name: "doomed", expectedRevision: d.revision + 1 })).rejects.toMatchObject({ code: "CONFLICT" });
      expect(await stored(folder)).toBe(true);
      const viewer = await t.as("viewer-1", "viewer");
      await expect(deleteDataset(viewer, { name: "doomed", expectedRevision: d.revision })).rejects.toMatchObject({ code: "FORBIDDEN" });
      expect(await deleteDataset(t.ctx, { name: "doomed", expectedRevision: d.revision })).toEqual({ filesRemoved: 1 });
      expect(await gone(folder)).toBe(true);
      expect(await t.db.dataset.count({ where: { name: "doomed" } })).toBe(0);
      expect(await t.db.datasetVersion.count({ where: { datasetId: d.id } })).toBe(0);
      expect(await t.db.exportJob.count({ where: { datasetId: d.id } })).toBe(0);
      expect(await t.db.datasetItem.count()).toBe((await getDatasetDetail(t.ctx, "keep")).dataset.latest!.itemCount);
      expect(
        (await listAuditEvents(t.ctx, { action: "dataset.delete", limit: 100 })).some(
          (e) => e.action === "dataset.delete" && e.targetId === "doomed",
        ),
      ).toBe(true);
    });
  });
}
