// Both storage drivers against the same contract: the local directory, and S3-compatible object storage served by
// s3rver (a local S3 implementation started here), including a multipart upload and prefix deletion across pages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import S3rver from "s3rver";
import { LocalStorage } from "./local.ts";
import { parseS3Url, S3Storage } from "./s3.ts";
import { checkKey, type FileStorage } from "./types.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-storage-test-"));
let server: S3rver;
let s3: S3Storage;
let port = 0;
/** A driver for `url` on the local s3rver. */
const s3At = (url: string) =>
  new S3Storage(parseS3Url(url), {
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: path.join(dir, "s3"),
    configureBuckets: [{ name: "reterm-test", configs: [] }],
  });
  port = ((await server.run()) as AddressInfo).port;
  s3 = s3At("s3://reterm-test/team/exports");
}, 30_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function read(storage: FileStorage, key: string): Promise<Buffer | null> {
  const f = await storage.open(key);
  if (!f) return null;
  const chunks: Buffer[] = [];
  for await (const c of f.body) chunks.push(Buffer.from(c as Uint8Array));
  const all = Buffer.concat(chunks);
  expect(f.size).toBe(all.length);
  return all;
}

function file(name: string, bytes: Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

describe.each([
  ["local directory", () => new LocalStorage(path.join(dir, "local"))],
  ["S3-compatible (s3rver)", () => s3],
])("%s storage", (_name, make) => {
  it("stores a file, streams it back byte for byte, and says when there is none", async () => {
    const storage = make();
    const bytes = Buffer.from("line 1\nlíne 2 \u001b[31mred\u001b[0m\n");
    await storage.putFile("job-1/data.jsonl", file("small", bytes));
    expect(await read(storage, "job-1/data.jsonl")).toEqual(bytes);
    expect(await read(storage, "job-1/other.jsonl")).toBeNull();
  });

  it("streams a file larger than one upload part (12 MB) intact", async () => {
    const storage = make();
    const bytes = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE(i, i);
    await storage.putFile("job-2/big.jsonl", file("big", bytes));
    const back = await read(storage, "job-2/big.jsonl");
    expect(back?.length).toBe(bytes.length);
    expect(back?.equals(bytes)).toBe(true);
  }, 60_000);

  it("a download opened before a clean-up deletes its file still reads the whole file", async () => {
    const storage = make();
    const bytes = Buffer.from("kept for the reader that opened it\n".repeat(1000));
    await storage.putFile("job-4/data.jsonl", file("opened", bytes));
    const f = await storage.open("job-4/data.jsonl");
    await storage.removePrefix("job-4/");
    expect(await read(storage, "job-4/data.jsonl")).toBeNull();
    const chunks: Buffer[] = [];
    for await (const c of f!.body) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks)).toEqual(bytes);
  });

  it("says it can take files", async () => {
    await expect(make().check()).resolves.toBeUndefined();
  });

  it("removes everything under a prefix and nothing beside it", async () => {
    const storage = make();
    const src = file("x", Buffer.from("x"));
    for (let i = 0; i < 5; i++) await storage.putFile(`job-3/f${i}.txt`, src);
    await storage.putFile("job-30/keep.txt", src);
    await storage.removePrefix("job-3/");
    for (let i = 0; i < 5; i++) expect(await read(storage, `job-3/f${i}.txt`)).toBeNull();
    expect(await read(storage, "job-30/keep.txt")).toEqual(Buffer.from("x"));
  });
});

describe("local directory storage and clean-ups", () => {
  it("a file deleted right after it was opened is still read whole (the reader holds it open, not its name)", async () => {
    const root = path.join(dir, "local-race");
    const storage = new LocalStorage(root);
    const bytes = Buffer.from("still here\n".repeat(100));
    await storage.putFile("job-5/data.jsonl", file("race", bytes));
    const f = await storage.open("job-5/data.jsonl");
    // Synchronously, before the stream has started: a clean-up on another request deleting the file.
    fs.rmSync(path.join(root, "job-5", "data.jsonl"));
    const chunks: Buffer[] = [];
    for await (const c of f!.body) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks)).toEqual(bytes);
  });
});

describe("storage that cannot take files", () => {
  it("a missing bucket fails the check, naming why", async () => {
    await expect(s3At("s3://no-such-bucket/x").check()).rejects.toThrow();
  });

  it("a folder that cannot be written fails the check", async () => {
    const file = path.join(dir, "not-a-folder");
    fs.writeFileSync(file, "x");
    await expect(new LocalStorage(path.join(file, "sub")).check()).rejects.toThrow();
  });
});

describe("storage keys and locations", () => {
  it("refuses keys that could leave the storage root", () => {
    for (const bad of ["../x", "a/../../x", "/etc/passwd", "a//b", "a\\b", "a/./b", "", "a b"])
      expect(() => checkKey(bad), bad).toThrow(/not a storage key/);
    expect(checkKey("job_1/data.v2.jsonl")).toBe("job_1/data.v2.jsonl");
  });

  it("reads s3://bucket/prefix and refuses anything else", () => {
    expect(parseS3Url("s3://reterm-lab/exports/prod/")).toEqual({ bucket: "reterm-lab", prefix: "exports/prod/" });
    expect(parseS3Url("s3://reterm-lab")).toEqual({ bucket: "reterm-lab", prefix: "" });
    for (const bad of ["s3://", "s3://A_B/x", "https://bucket/x", "s3://bucket/../x"]) expect(() => parseS3Url(bad), bad).toThrow();
  });
});
