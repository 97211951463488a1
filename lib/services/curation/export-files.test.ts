// writeExportFiles when the data fails on its very first piece: the write stream has not finished opening its
// partial file yet, and nothing may be left behind once the export has failed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeExportFiles, type OpenedExport } from "./export-dataset.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function failingExport(): OpenedExport {
  return {
    dataset: { id: "d", name: "d" },
    version: { id: "v", version: 1 },
    format: "openai",
    filename: "d.jsonl",
    contentType: "application/jsonl",
    total: 1,
    stored: true,
    options: null,
    sidecars: [],
    // Fails before its first piece, like a damaged stored chunk.
    async *pieces() {
      throw new Error("damaged first chunk");
    },
    card: () => "",
    close: async () => {},
  } as unknown as OpenedExport;
}

describe("writeExportFiles", () => {
  it("leaves no file at all when the data fails on its first piece", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-export-files-"));
    dirs.push(dir);
    const out = path.join(dir, "d.jsonl");
    await expect(writeExportFiles(failingExport(), out)).rejects.toThrow("damaged first chunk");
    // The stream's file opens asynchronously: give a late open time to land before looking.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
