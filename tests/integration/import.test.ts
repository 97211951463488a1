import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { zipSync, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db";
import { generateTrajectories } from "@/lib/generator/generate";
import { importFiles } from "@/lib/services/import/import-files";
import { importTrajectories, type ImportRecord } from "@/lib/services/import/import-trajectories";
import { ingestTrajectories } from "@/lib/services/import/ingest-trajectories";
import { importUpload } from "@/lib/services/import/import-upload";
import { undoInferredForks } from "@/lib/services/import/infer-forks";
import { getStats } from "@/lib/services/browse/get-stats";
import { refreshStatisticsAfterBulkLoad } from "@/lib/db/bulk/statistics";
import type { TrajectoryInput } from "@/lib/domain/trajectory";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-import-test-"));
const jsonl = (ts: unknown[]) => ts.map((t) => JSON.stringify(t)).join("\n") + "\n";
function write(name: string, content: string | Buffer): string {
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}
const gen = (count: number, seed: number) => [...generateTrajectories({ count, seed, recordingRate: 0.3 })];
const streamOf = (buf: Buffer) => new Blob([new Uint8Array(buf)]).stream();

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(PROVIDERS)("import on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)("imports good lines, names file, line and field of bad ones, and stays idempotent", async () => {
    const good = gen(12, 101);
    const lines = [
      ...good.slice(0, 6).map((x) => JSON.stringify(x)),
      '{"task": {"id": "x"}, "run": {"name": "r"}, "steps": [{"source": "agent", "observation": 42}]}',
      "{not json",
      ...good.slice(6).map((x) => JSON.stringify(x)),
    ];
    const file = write(`${provider}/mixed.jsonl`, lines.join("\n") + "\n");
    const r = await importFiles(t.ctx, [file], { origin: "cli" });
    expect(r.report.imported).toBe(12);
    expect(r.report.failed).toBe(2);
    expect(r.report.errors.map((e) => [e.file, e.line, e.path])).toEqual([
      ["mixed.jsonl", 7, "steps[0].observation"],
      ["mixed.jsonl", 8, undefined],
    ]);
    expect(r.report.errors[0]!.message).toMatch(/expected string/);
    expect(r.files).toEqual([{ file: "mixed.jsonl", format: "native", imported: 12, duplicates: 0, failed: 2 }]);
    const stats = await getStats(t.ctx);
    expect(stats.trajectories).toBe(12);
    expect(stats.steps).toBe(good.reduce((n, x) => n + x.steps.length, 0));

    const again = await importFiles(t.ctx, [file], { origin: "cli" });
    expect(again.report).toMatchObject({ imported: 0, duplicates: 12, failed: 2 });
    expect((await getStats(t.ctx)).trajectories).toBe(12);
  });

  it.skipIf(skip)("in strict mode one bad record leaves the database as it was", async () => {
    const before = await getStats(t.ctx);
    const file = write(
      `${provider}/strict.jsonl.gz`,
      zlib.gzipSync(jsonl([...gen(5, 202), { task: { id: "t" }, run: { name: "r" }, outcome: "maybe", steps: [] }])),
    );
    const r = await importFiles(t.ctx, [file], { origin: "cli", strict: true });
    expect(r.report.rolledBack).toBe(true);
    expect(r.report.errors[0]).toMatchObject({ file: "strict.jsonl.gz", line: 6, path: "outcome" });
    expect(await getStats(t.ctx)).toEqual(before);
  });

  it.skipIf(skip)("keeps whole trajectories only when an import dies midway, and a re-run completes it", async () => {
    const all = gen(700, 303);
    async function* dying(): AsyncGenerator<ImportRecord> {
      for (const [i, tr] of all.entries()) {
        if (i === 600) throw new Error("killed");
        yield { ok: true, value: { trajectory: tr, sourceFormat: "native" }, file: "big.jsonl", line: i + 1 };
      }
    }
    const before = (await getStats(t.ctx)).trajectories;
    await expect(importTrajectories(t.ctx, dying(), { origin: "cli" })).rejects.toThrow("killed");
    const partial = (await getStats(t.ctx)).trajectories - before;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(600);
    // Every trajectory that is visible is complete.
    const rows = await t.db.trajectory.findMany({ select: { stepCount: true, _count: { select: { steps: true } } } });
    expect(rows.every((row) => row.stepCount === row._count.steps)).toBe(true);

    const rerun = await importTrajectories(
      t.ctx,
      all.map((tr, i) => ({ ok: true as const, value: { trajectory: tr, sourceFormat: "native" }, file: "big.jsonl", line: i + 1 })),
      { origin: "cli" },
    );
    expect(rerun.duplicates).toBe(partial);
    expect(rerun.imported).toBe(700 - partial);
  });

  it.skipIf(skip)("infers fork links from shared prefixes exactly where the generator forked, and can undo them", async () => {
    const source = gen(160, 404);
    const withoutLinks = source.map(({ fork: _fork, ...rest }) => rest);
    const file = write(`${provider}/nolinks.jsonl`, jsonl(withoutLinks));
    const r = await importFiles(t.ctx, [file], { origin: "cli" });
    const expected = source
      .filter((x) => x.fork)
      .map((x) => `${x.id}<-${x.fork!.parentId}@${x.fork!.stepIndex}`)
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    const byId = new Map(
      (await t.db.trajectory.findMany({ where: { importJobId: r.report.jobId! }, select: { id: true, externalId: true } })).map((x) => [
        x.id,
        x.externalId,
      ]),
    );
    const got = r.inferredForks!.links.map((l) => `${byId.get(l.attemptId)}<-${byId.get(l.parentId)}@${l.stepIndex}`).sort();
    expect(got).toEqual(expected);
    expect(r.inferredForks!.links.every((l) => l.reason === "copied-context")).toBe(true);

    const parent = await t.db.trajectory.findFirstOrThrow({ where: { importJobId: r.report.jobId!, attemptCount: { gt: 0 } } });
    expect(parent.forkPointCount).toBe(1);

    expect(await undoInferredForks(t.ctx, r.report.jobId!)).toBe(expected.length);
    expect(await t.db.trajectory.count({ where: { importJobId: r.report.jobId!, parentId: { not: null } } })).toBe(0);
    expect(await t.db.forkPoint.count({ where: { trajectory: { importJobId: r.report.jobId! } } })).toBe(0);
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: parent.id } })).attemptCount).toBe(0);
  });

  it.skipIf(skip)("links attempts imported before their parent once the parent arrives", async () => {
    const family = gen(60, 505);
    const attempts = family.filter((x) => x.fork);
    const roots = family.filter((x) => !x.fork);
    const first = await importFiles(t.ctx, [write(`${provider}/attempts.jsonl`, jsonl(attempts))], { origin: "cli", inferForks: false });
    expect(first.report.unresolvedForks.length).toBe(attempts.length);
    await importFiles(t.ctx, [write(`${provider}/roots.jsonl`, jsonl(roots))], { origin: "cli", inferForks: false });
    const linked = await t.db.trajectory.count({ where: { externalId: { in: attempts.map((a) => a.id!) }, parentId: { not: null } } });
    expect(linked).toBe(attempts.length);
  });

  it.skipIf(skip)(
    "links stated fork links exactly, whether the parent comes in the same batch, an earlier batch or an earlier import",
    async () => {
      const family = gen(700, 515);
      const attempts = family.filter((x) => x.fork);
      // Some attempts of unknown outcome: a parent's recovery rate counts known outcomes only.
      attempts.forEach((a, i) => {
        if (i % 3 === 0) a.outcome = "unknown";
      });
      expect(attempts.some((a) => a.outcome === "unknown") && attempts.some((a) => a.outcome === "passed")).toBe(true);
      // The last root's attempts come in a second import (their parent is then only in the database); the rest in one
      // file of several batches (256 trajectories each), so some families straddle a batch boundary.
      const lastRoot = attempts.at(-1)!.fork!.parentId;
      const later = family.filter((x) => x.fork?.parentId === lastRoot);
      await importFiles(t.ctx, [write(`${provider}/family-a.jsonl`, jsonl(family.filter((x) => !later.includes(x))))], {
        origin: "cli",
        inferForks: false,
      });
      const second = await importFiles(t.ctx, [write(`${provider}/family-b.jsonl`, jsonl(later))], { origin: "cli", inferForks: false });
      expect(second.report.unresolvedForks).toEqual([]);
      const rows = await t.db.trajectory.findMany({
        where: { externalId: { in: family.map((x) => x.id!) } },
        select: {
          id: true,
          externalId: true,
          parentId: true,
          forkStepIndex: true,
          attemptIndex: true,
          forkInferred: true,
          pendingParentRef: true,
          forkPointCount: true,
          attemptCount: true,
          recoveryRate: true,
          forkPoint: { select: { trajectoryId: true, stepIndex: true, errorCategory: true, origin: true } },
        },
      });
      const byExternal = new Map(rows.map((r) => [r.externalId!, r]));
      expect(rows.length).toBe(family.length);
      for (const x of family) {
        const r = byExternal.get(x.id!)!;
        if (x.fork) {
          const parent = byExternal.get(x.fork.parentId)!;
          expect([x.id, r.parentId, r.forkStepIndex, r.attemptIndex, r.forkInferred, r.pendingParentRef]).toEqual([
            x.id,
            parent.id,
            x.fork.stepIndex,
            x.fork.attemptIndex,
            false,
            null,
          ]);
          expect(r.forkPoint).toEqual({
            trajectoryId: parent.id,
            stepIndex: x.fork.stepIndex,
            errorCategory: x.fork.errorCategory ?? null,
            origin: "explicit",
          });
        } else {
          const own = attempts.filter((a) => a.fork!.parentId === x.id);
          const passed = own.filter((a) => a.outcome === "passed").length;
          const known = own.filter((a) => a.outcome !== "unknown").length;
          expect([x.id, r.attemptCount, r.forkPointCount, r.recoveryRate]).toEqual([
            x.id,
            own.length,
            new Set(own.map((a) => a.fork!.stepIndex)).size,
            known ? expect.closeTo(passed / known, 12) : null,
          ]);
        }
      }
    },
  );

  it.skipIf(skip)("refreshes PostgreSQL's planner statistics after a bulk load (SQLite keeps none)", async () => {
    await refreshStatisticsAfterBulkLoad(t.db);
    if (provider === "postgresql") {
      const rows = await t.db.$queryRawUnsafe<{ relname: string; analyzed: boolean }[]>(
        `SELECT relname, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname IN ('Trajectory', 'Step') ORDER BY relname`,
      );
      expect(rows).toEqual([
        { relname: "Step", analyzed: true },
        { relname: "Trajectory", analyzed: true },
      ]);
    } else {
      expect(await t.db.$queryRawUnsafe<unknown[]>(`SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'`)).toEqual([]);
    }
  });

  it.skipIf(skip)("accepts API batches idempotently with per-record results", async () => {
    const batch: TrajectoryInput[] = gen(4, 606).map((x, i) => ({ ...x, id: `api-${provider}-${i}`, fork: undefined }));
    const body = JSON.stringify([...batch, { task: { id: "x" }, steps: [] }]);
    const r = await ingestTrajectories(t.ctx, body, { ndjson: false });
    expect(r.results.map((x) => x.status)).toEqual(["imported", "imported", "imported", "imported", "failed"]);
    expect(r.results[4]!.error).toMatch(/request\[4\]: run/);
    const again = await ingestTrajectories(t.ctx, batch.map((x) => JSON.stringify(x)).join("\n"), { ndjson: true });
    expect(again.results.map((x) => x.status)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
    expect(again.results.map((x) => x.id)).toEqual(r.results.slice(0, 4).map((x) => x.id));
  });

  it.skipIf(skip)("imports a zipped folder upload, and refuses oversized uploads and zip-slip entries without writing", async () => {
    const zip = Buffer.from(
      zipSync({
        "job/a.jsonl": strToU8(jsonl(gen(3, 707))),
        "job/notes.txt": strToU8("hello"),
        "job/sub/b.jsonl": strToU8(jsonl(gen(2, 708))),
      }),
    );
    const limits = { maxBytes: 10 * 1024 * 1024, maxUnpackedBytes: 40 * 1024 * 1024, maxZipEntries: 100 };
    const r = await importUpload(t.ctx, { name: "job.zip", body: streamOf(zip) }, limits, {});
    expect(r.report.imported).toBe(5);
    expect(r.files.map((f) => [f.file, f.imported, f.skipped ?? null])).toEqual([
      ["job/job/a.jsonl", 3, null],
      ["job/job/notes.txt", 0, "format not recognised (use --format to force one)"],
      ["job/job/sub/b.jsonl", 2, null],
    ]);
    const before = await getStats(t.ctx);
    await expect(
      importUpload(t.ctx, { name: "big.jsonl", body: streamOf(Buffer.from(jsonl(gen(3, 709)))) }, { ...limits, maxBytes: 100 }, {}),
    ).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const evil = Buffer.from(zipSync({ "../../evil.jsonl": strToU8(jsonl(gen(1, 710))) }));
    await expect(importUpload(t.ctx, { name: "evil.zip", body: streamOf(evil) }, limits, {})).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    await expect(importUpload(t.ctx, { name: "../x.jsonl", body: streamOf(Buffer.from("{}")) }, limits, {})).rejects.toThrow(/path/);
    expect(await getStats(t.ctx)).toEqual(before);
  });

  it.skipIf(skip)("refuses imports from an annotator", async () => {
    const annotator = await t.as("ann", "annotator");
    await expect(importFiles(annotator, [tmp], { origin: "cli" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("walking inputs", () => {
  it("reports explicit unreadable inputs as failures and skips unknown files inside folders", async () => {
    const dir = path.join(tmp, "walk");
    write("walk/binary.bin", Buffer.from([0, 1, 2, 3, 255, 0, 9]));
    write("walk/empty.jsonl", "");
    const db = await createTestDatabase("sqlite");
    try {
      const r = await importFiles(db.ctx, [dir, path.join(tmp, "missing.jsonl"), path.join(tmp, "walk/binary.bin")], { origin: "cli" });
      expect(r.report.errors.map((e) => `${e.file}: ${e.message}`)).toEqual([
        `${path.join(tmp, "missing.jsonl")}: no such file or directory`,
        "binary.bin: binary file, not a trajectory format",
      ]);
      const skipped = Object.fromEntries(r.files.filter((f) => f.skipped).map((f) => [f.file, f.skipped]));
      expect(skipped).toMatchObject({ "walk/binary.bin": "binary file, not a trajectory format", "walk/empty.jsonl": "file is empty" });
    } finally {
      await db.drop();
    }
  });
});
