// Per-record size caps of POST /api/v1/trajectories at the service: an oversized record fails alone, with its index
// (and line for NDJSON), and is never parsed; malformed documents are one clear 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { ingestTrajectories } from "../../lib/services/import/ingest-trajectories.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

const [a, b] = [...generateTrajectories({ count: 2, seed: 1617 })].map((x, i) => ({ ...x, fork: undefined, id: `limits-${i}` }));
const cap = 64 * 1024;

describe.each(PROVIDERS)("per-record limits on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("fails an oversized array element alone and imports the others", async () => {
    const big = { ...a!, id: `big-${provider}`, verifierOutput: "é".repeat(cap) };
    const r = await ingestTrajectories(t.ctx, JSON.stringify([b, big]), { ndjson: false, maxRecordBytes: cap });
    expect(r.results.map((x) => x.status)).toEqual(["imported", "failed"]);
    expect(r.results[1]!.error).toMatch(/^request\[1\]: record is 1\d\d\d\d\d bytes, more than the 65536 bytes allowed per trajectory/);
    expect(await t.db.trajectory.count({ where: { externalId: `big-${provider}` } })).toBe(0);
  });

  it.skipIf(skip)("names the line of an oversized NDJSON record, and sizes a single object too", async () => {
    const big = JSON.stringify({ ...a!, id: `big2-${provider}`, verifierOutput: "x".repeat(cap) });
    const r = await ingestTrajectories(t.ctx, `\n${JSON.stringify(b)}\n${big}\n`, { ndjson: true, maxRecordBytes: cap });
    expect(r.results.map((x) => x.status)).toEqual(["duplicate", "failed"]);
    expect(r.results[1]!.error).toMatch(/^request\[1\]:3: record is/);
    const one = await ingestTrajectories(t.ctx, big, { ndjson: false, maxRecordBytes: cap });
    expect(one).toMatchObject({ imported: 0, failed: 1 });
  });

  it.skipIf(skip)("fails a record nested deeper than any trajectory alone, before parsing or hashing it", async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const body = `[${JSON.stringify({ ...a!, id: `deep-${provider}` }).replace(/}$/, `,"metadata":{"deep":${deep}}}`)}]`;
    const r = await ingestTrajectories(t.ctx, body, { ndjson: false });
    expect(r.results).toEqual([{ index: 0, status: "failed", error: "request[0]: record nests more than 128 levels deep; refusing it" }]);
    const ok = JSON.stringify({ ...a!, id: `nested-ok-${provider}`, metadata: { x: JSON.parse(`${"[".repeat(20)}1${"]".repeat(20)}`) } });
    expect((await ingestTrajectories(t.ctx, ok, { ndjson: false })).results[0]!.status).toBe("imported");
  });

  it.skipIf(skip)("answers a malformed array with one 400, writing nothing", async () => {
    const before = await t.db.trajectory.count();
    await expect(ingestTrajectories(t.ctx, `[${JSON.stringify(a)}, {"task": ]`, { ndjson: false })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: /body is not valid JSON/,
    });
    await expect(ingestTrajectories(t.ctx, `[${JSON.stringify(a)}] trailing`, { ndjson: false })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(await t.db.trajectory.count()).toBe(before);
  });
});
