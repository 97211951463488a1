// An uploaded Inspect `.eval` is a ZIP, but a log, not a zipped job folder: it must be kept as a file and read by the
// Inspect importer. (Dry runs: this is about what is read, not how it is written.)
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-db.ts";
import { importUpload } from "./import-upload.ts";

const limits = { maxBytes: 10 * 1024 * 1024, maxUnpackedBytes: 40 * 1024 * 1024, maxZipEntries: 100 };
const streamOf = (buf: Uint8Array) => new Blob([new Uint8Array(buf)]).stream();

const log = { version: 2, status: "success", eval: { task: "shell_tasks", model: "openai/gpt-test", run_id: "run-1" } };
const sample = {
  id: 1,
  epoch: 1,
  input: "run ls",
  messages: [
    { role: "user", content: "run ls" },
    { role: "assistant", content: "a.txt" },
  ],
  scores: { verify: { value: "C" } },
};
const evalZip = zipSync({ "header.json": strToU8(JSON.stringify(log)), "samples/1_epoch_1.json": strToU8(JSON.stringify(sample)) });

describe("uploading an Inspect .eval log", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("imports it with the Inspect importer instead of unpacking it like a zipped job folder", async () => {
    const r = await importUpload(t.ctx, { name: "shell.eval", body: streamOf(evalZip) }, limits, { dryRun: true });
    expect(r.report.errors).toEqual([]);
    expect(r.report.imported).toBe(1);
    expect(r.files).toEqual([{ file: "shell.eval", format: "inspect", imported: 1, duplicates: 0, failed: 0 }]);
  });
});
