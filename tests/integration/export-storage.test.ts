// Background exports kept in S3-compatible object storage (RETERM_STORAGE=s3://…), on both databases: the job's
// files go to the bucket, not this machine's disk; downloads stream the same bytes as the export itself; deleting
// the dataset removes the objects. The S3 server is s3rver, started here; the environment is set before any module
// reads it (the services are imported afterwards).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import S3rver from "s3rver";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-export-s3-"));
let server: S3rver;
type Services = typeof import("./export-storage.services.ts");
let svc: Services;

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: path.join(dir, "bucket"),
    configureBuckets: [{ name: "reterm-exports", configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  Object.assign(process.env, {
    RETERM_STORAGE: "s3://reterm-exports/lab",
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    AWS_REGION: "us-east-1",
  });
  svc = await import("./export-storage.services.ts");
}, 30_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function text(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}

/** Object keys under the bucket, as s3rver keeps them on its disk. */
function objects(): string[] {
  const root = path.join(dir, "bucket", "reterm-exports");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith("._S3rver_object"))
    .map((f) => f.replace(/\._S3rver_object$/, ""))
    .sort();
}

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`exports in object storage (${p.title})`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await svc.startJobWorker(t.db);
      const rows = [...svc.generateTrajectories({ count: 10, seed: 5 })].map((r, i) => svc.normalized(r, "native", "t.jsonl", i + 1));
      await svc.importTrajectories(t.ctx, rows, { origin: "cli", indexSearch: false });
      await svc.createDataset(t.ctx, { name: "s3-set", rules: { source: "filter", filter: "" } });
    }, 120_000);
    afterAll(async () => t?.drop());

    it("stores every file of the job in the bucket and streams them back from there", async () => {
      expect(svc.fileStorage().kind).toBe("s3");
      expect(await svc.checkStorage()).toEqual({ ok: true, kind: "s3" });
      let job = await svc.startExportJob(t.ctx, { name: "s3-set", format: "openai" });
      for (let i = 0; i < 400 && job.status === "running"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        job = await svc.getExportJob(t.ctx, job.id);
      }
      expect(job).toMatchObject({ status: "succeeded", ready: true });
      // The run that completed wrote them together under "<export id>/<run id>/".
      const stored = objects().filter((k) => k.startsWith(`lab/${job.id}/`));
      const run = stored[0]!.split("/")[2]!;
      expect(run).toMatch(/^[0-9a-f-]{36}$/);
      expect(stored).toEqual(
        [
          `lab/${job.id}/${run}/${job.filename}`,
          `lab/${job.id}/${run}/${job.filename!.replace(/\.jsonl$/, ".provenance.jsonl")}`,
          `lab/${job.id}/${run}/README.md`,
        ].sort(),
      );
      // Nothing left on this machine: the scratch folder went once the files were stored.
      expect(fs.existsSync(path.join(os.tmpdir(), "reterm-export-work", run))).toBe(false);
      const data = await svc.openExportFile(t.ctx, job.id, "data");
      const opened = await svc.openExport(t.ctx, { name: "s3-set", format: "openai" });
      let expected = "";
      for await (const piece of opened.pieces()) expected += piece;
      await opened.close();
      expect(await text(data.body)).toBe(expected);
      expect(await text((await svc.openExportFile(t.ctx, job.id, "card")).body)).toMatch(/^#/);
      expect((await text((await svc.openExportFile(t.ctx, job.id, "provenance")).body)).split("\n").filter(Boolean).length).toBe(
        job.rowsTotal,
      );
    });

    it("deleting the dataset deletes its objects", async () => {
      expect(objects().length).toBeGreaterThan(0);
      const mine = (await svc.listDatasetExports(t.ctx, "s3-set")).map((j) => j.id);
      const d = (await svc.getDatasetDetail(t.ctx, "s3-set")).dataset;
      await svc.deleteDataset(t.ctx, { name: "s3-set", expectedRevision: d.revision });
      expect(objects().filter((k) => mine.some((id) => k.startsWith(`lab/${id}/`)))).toEqual([]);
    });
  });
}
