// Uploaded zips are unpacked from disk within a budget checked before inflating; bombs (declared and real) are refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { listZipFileEntries, unpackZipFile, ZipBudgetError, ZipFormatError } from "./zip-file.ts";
import { listZipEntries, readZipEntry } from "./zip-entries.ts";
import { declaredBomb, lyingBomb, manyEntries, ratioBomb } from "../../tests/hostile/zip-bombs.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-zipfile-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const budget = { maxEntries: 100, maxTotalBytes: 64 * 1024 * 1024 };
let n = 0;
function fileOf(bytes: Uint8Array): string {
  const f = path.join(tmp, `a${n++}.zip`);
  fs.writeFileSync(f, bytes);
  return f;
}
function freshDir(): string {
  const d = path.join(tmp, `out${n++}`);
  fs.mkdirSync(d);
  return d;
}

describe("unpackZipFile", () => {
  it("unpacks a normal archive, folders included, byte for byte", async () => {
    const big = strToU8("line of log output\n".repeat(20_000));
    const zip = zipSync({
      "job/a.jsonl": strToU8('{"a":1}\n'),
      "job/sub/": new Uint8Array(0),
      "job/sub/b.txt": big,
      "job/empty": new Uint8Array(0),
    });
    const dir = freshDir();
    expect(await unpackZipFile(fileOf(zip), dir, budget)).toBe(3);
    expect(fs.readFileSync(path.join(dir, "job/a.jsonl"), "utf8")).toBe('{"a":1}\n');
    expect(fs.readFileSync(path.join(dir, "job/sub/b.txt")).equals(Buffer.from(big))).toBe(true);
    expect(fs.statSync(path.join(dir, "job/empty")).size).toBe(0);
  });

  it("refuses a declared bomb from the central directory alone, writing nothing", async () => {
    const dir = freshDir();
    const file = fileOf(declaredBomb(2_500 * 1024 * 1024));
    await expect(unpackZipFile(file, dir, budget)).rejects.toThrow(ZipBudgetError);
    await expect(unpackZipFile(file, dir, budget)).rejects.toThrow(/unpacks to 2500 MB|ratio/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses an honest 1000:1 archive by its ratio before inflating", () => {
    expect(() => listZipFileEntries(fileOf(ratioBomb(20 * 1024 * 1024)), { ...budget, maxTotalBytes: 1e12 })).toThrow(/ratio \d+:1/);
  });

  it("cuts off a real bomb that lies about its size as soon as it inflates past what it declared", async () => {
    const dir = freshDir();
    const started = process.memoryUsage().rss;
    await expect(unpackZipFile(fileOf(lyingBomb(256 * 1024 * 1024, 4096)), dir, budget)).rejects.toThrow(
      /more than the 4096 bytes it declares/,
    );
    // The 256 MB it would inflate to never exists anywhere: on disk the entry stopped near its declared size.
    const written = fs
      .readdirSync(dir, { recursive: true })
      .map((f) => path.join(dir, String(f)))
      .filter((f) => fs.statSync(f).isFile());
    for (const f of written) expect(fs.statSync(f).size).toBeLessThanOrEqual(4096);
    expect(process.memoryUsage().rss - started).toBeLessThan(150 * 1024 * 1024);
  });

  it("cuts off a large lying entry on the streamed path too (declared 9 MB, inflates to 64 MB)", async () => {
    const dir = freshDir();
    const declared = 9 * 1024 * 1024;
    await expect(unpackZipFile(fileOf(lyingBomb(64 * 1024 * 1024, declared)), dir, { ...budget, maxRatio: 1e6 })).rejects.toThrow(
      new RegExp(`more than the ${declared} bytes it declares`),
    );
  });

  it("counts entries from the end record before reading any of them", () => {
    expect(() => listZipFileEntries(fileOf(manyEntries(20_000)), budget)).toThrow(/20000 entries, more than the 100 allowed/);
  });

  it("refuses entries that escape the folder, and garbage that is not a zip", async () => {
    await expect(unpackZipFile(fileOf(zipSync({ "../../evil.jsonl": strToU8("{}") })), freshDir(), budget)).rejects.toThrow(ZipFormatError);
    await expect(unpackZipFile(fileOf(zipSync({ "/etc/x": strToU8("{}") })), freshDir(), budget)).rejects.toThrow(/outside the archive/);
    await expect(unpackZipFile(fileOf(strToU8("not a zip at all")), freshDir(), budget)).rejects.toThrow(/end-of-central-directory/);
  });
});

describe("readZipEntry (in-memory .eval archives)", () => {
  it("refuses an entry whose declared ratio is a bomb, and one that inflates past its declared size", () => {
    const honest = ratioBomb(20 * 1024 * 1024);
    const [e] = listZipEntries(honest, 10);
    expect(() => readZipEntry(honest, e!, 1e9)).toThrow(/zip bomb/);
    const liar = lyingBomb(64 * 1024 * 1024, 100);
    const [l] = listZipEntries(liar, 10);
    expect(() => readZipEntry(liar, l!, 1e9)).toThrow(/more than the 100 bytes it declares: a zip bomb/);
  });
});
