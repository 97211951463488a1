// Import integrity on both databases: partial sources never pass for whole (warnings stored with the trajectory,
// --strict refuses them), asciicast durations follow the recording, corrupt or oversized sources are answers naming
// the file, and a killed import's job shows as interrupted until a re-run completes exactly what was left.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db";
import { generateTrajectories } from "@/lib/generator/generate";
import { importFiles } from "@/lib/services/import/import-files";
import { importUpload } from "@/lib/services/import/import-upload";
import { importTrajectories, type ImportRecord } from "@/lib/services/import/import-trajectories";
import { findInterruptedImports } from "@/lib/services/import-integrity/interrupted-imports";
import { listImportJobs } from "@/lib/services/import-integrity/list-import-jobs";
import { getTrajectoryFacets, listTrajectories } from "@/lib/services/browse/browse-trajectories";
import { getTrajectory } from "@/lib/services/browse/view-trajectory";
import { trajectoryListQuerySchema } from "@/lib/validation/search-params";
import type { TrajectoryInput } from "@/lib/domain/trajectory";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-integrity-test-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
function write(name: string, content: string | Buffer): string {
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}
const CAST_HEADER = '{"version": 2, "width": 80, "height": 24}';
const records = (ts: TrajectoryInput[]): ImportRecord[] =>
  ts.map((tr, i) => ({ ok: true, value: { trajectory: tr, sourceFormat: "native" }, file: "family.jsonl", line: i + 1 }));

/** A pid that is certainly not running any more (a process that has exited). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(r.stdout.toString());
}

describe.each(PROVIDERS)("import integrity on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!skip) t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(skip)(
    "a recording with a bad line and a resize to -1x0 is imported with both warnings kept, shown and filterable",
    async () => {
      const file = write(
        `${provider}/broken.cast`,
        [CAST_HEADER, '[0.5, "o", "$ ls\\r\\n"]', "lol!", '[1.0, "r", "-1x0"]', '[8.5, "o", "done\\r\\n"]'].join("\n") + "\n",
      );
      const r = await importFiles(t.ctx, [file], { origin: "cli" });
      expect(r.report).toMatchObject({ imported: 1, failed: 0 });
      expect(r.report.warnings.map((w) => [w.file, w.line, w.message])).toEqual([
        ["broken.cast", 3, "invalid JSON in event line"],
        ["broken.cast", 4, 'invalid resize "-1x0" (expected COLSxROWS, both at least 1); event skipped'],
      ]);
      const stored = await t.db.trajectory.findFirstOrThrow({ where: { importJobId: r.report.jobId! } });
      expect(stored.warningCount).toBe(2);
      expect(JSON.parse(stored.importWarnings!)).toEqual([
        { file: "broken.cast", line: 3, message: "invalid JSON in event line" },
        { file: "broken.cast", line: 4, message: 'invalid resize "-1x0" (expected COLSxROWS, both at least 1); event skipped' },
      ]);
      // The recording's real timeline: 8.5 s, not the moment its first step began.
      expect(stored.durationMs).toBe(8500);

      // The browser (and the API, which shares the query) lists it under "imported with warnings", with its count.
      const withWarnings = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ warnings: "yes" }));
      expect(withWarnings.rows.map((row) => [row.id, row.warningCount])).toEqual([[stored.id, 2]]);
      const clean = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ warnings: "no" }));
      expect(clean.rows.map((row) => row.id)).not.toContain(stored.id);
      const facets = await getTrajectoryFacets(t.ctx, trajectoryListQuerySchema.parse({}));
      expect(facets!.warnings.find((o) => o.value === "yes")!.count).toBe(1);
      expect((await getTrajectory(t.ctx, stored.id)).importWarnings).toHaveLength(2);
    },
  );

  it.skipIf(skip)("under --strict a source that could not be read completely fails and nothing of the import is written", async () => {
    const before = await t.db.trajectory.count();
    const good = write(`${provider}/strict/good.cast`, [CAST_HEADER, '[0.5, "o", "fine\\r\\n"]'].join("\n") + "\n");
    const bad = write(
      `${provider}/strict/bad.cast`,
      [CAST_HEADER, '[0.5, "o", "x"]', '[0.2, "o", "back in time"]', '[0.9, "z", "?"]'].join("\n") + "\n",
    );
    const r = await importFiles(t.ctx, [good, bad], { origin: "cli", strict: true });
    expect(r.report.rolledBack).toBe(true);
    expect(r.report.imported).toBe(0);
    expect(r.report.errors.map((e) => [e.file, e.line])).toEqual([
      ["bad.cast", 3],
      ["bad.cast", 4],
    ]);
    expect(r.report.errors[0]!.message).toMatch(
      /^source not read completely under --strict: event time 0.2 s is before the previous event/,
    );
    expect(r.report.errors[1]!.message).toMatch(/unknown event code "z"/);
    expect(await t.db.trajectory.count()).toBe(before);
  });

  it.skipIf(skip)("a corrupt .gz and a whole-JSON record over the size cap are answers naming the file", async () => {
    const lines = [...generateTrajectories({ count: 40, seed: 91 })].map((x) => JSON.stringify(x)).join("\n");
    const gz = zlib.gzipSync(lines);
    const truncated = write(`${provider}/cut.jsonl.gz`, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const huge = path.join(tmp, provider, "huge.traj");
    fs.writeFileSync(huge, '{"environment": "swe_main", "trajectory": [{"action": "ls", "observation": "');
    fs.truncateSync(huge, 65 * 1024 * 1024); // sparse: the size is what is checked before anything is read
    const r = await importFiles(t.ctx, [truncated, huge], { origin: "cli", format: undefined });
    const byFile = new Map(r.report.errors.map((e) => [e.file, e.message]));
    expect(byFile.get("cut.jsonl.gz")).toMatch(/^corrupt or truncated gzip data/);
    expect(byFile.get("huge.traj")).toMatch(/^the file is one record of 65 MB \(at most 64 MB per record/);
    // What the truncated stream held before the break is imported, and the file is still reported as failed.
    expect(r.report.imported).toBeGreaterThan(0);
    expect(r.files.find((f) => f.file === "cut.jsonl.gz")!.failed).toBeGreaterThan(0);

    // The same through an upload, with bytes flipped inside the compressed data: an answer naming the file.
    const flipped = Buffer.from(gz);
    for (let i = 40; i < flipped.length - 20; i += 97) flipped[i] = flipped[i]! ^ 0xff;
    const up = await importUpload(
      t.ctx,
      { name: "flipped.jsonl.gz", body: new Blob([new Uint8Array(flipped)]).stream() },
      { maxBytes: 10 * 1024 * 1024, maxUnpackedBytes: 10 * 1024 * 1024, maxZipEntries: 10 },
      {},
    );
    expect(up.report.errors.map((e) => e.file)).toContain("flipped.jsonl.gz");
    expect(up.report.errors.find((e) => e.file === "flipped.jsonl.gz")!.message).toMatch(/gzip|invalid JSON/);
  });

  it.skipIf(skip)("a killed import shows as interrupted, and a re-run ends where an uninterrupted import ends", async () => {
    const family = [...generateTrajectories({ count: 300, seed: 77 })];
    // Attempts first, so that their links can only be made once their parents arrive later in the import.
    const ordered = [...family.filter((x) => x.fork), ...family.filter((x) => !x.fork)];
    expect(ordered.filter((x) => x.fork).length).toBeGreaterThan(10);

    const reference = await createTestDatabase(provider);
    let expected: unknown;
    try {
      await importTrajectories(reference.ctx, records(ordered), { origin: "cli", inferForks: true });
      expected = await state(reference);
    } finally {
      await reference.drop();
    }

    // The first run dies after some of its rows were written (none of the later phases ran) ...
    async function* dying(): AsyncGenerator<ImportRecord> {
      yield* records(ordered);
      throw new Error("killed");
    }
    const before = await t.db.trajectory.count();
    await expect(importTrajectories(t.ctx, dying(), { origin: "cli", inferForks: true })).rejects.toThrow("killed");
    // ... as a killed process would leave it: its job still running, its process gone.
    const job = await t.db.importJob.findFirstOrThrow({ where: { status: "running" } });
    await t.db.importJob.update({ where: { id: job.id }, data: { pid: deadPid(), host: os.hostname() } });
    const written = (await t.db.trajectory.count()) - before;
    expect(written).toBeGreaterThan(0);
    expect(await findInterruptedImports(t.ctx)).toEqual([job.id]);
    expect((await listImportJobs(t.ctx)).find((j) => j.id === job.id)!.status).toBe("interrupted");

    const rerun = await importTrajectories(t.ctx, records(ordered), { origin: "cli", inferForks: true });
    expect(rerun).toMatchObject({ imported: ordered.length - written, duplicates: written, resumedJobs: [job.id] });
    expect(await state(t, [job.id, rerun.jobId!])).toEqual(expected);
    expect(await findInterruptedImports(t.ctx)).toEqual([]);
    expect(await t.db.importJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "resumed", imported: written });
    expect((await listImportJobs(t.ctx)).find((j) => j.id === job.id)!.status).toBe("resumed");
  });
});

/** Fork structure, waiting attempts and search index of one import's trajectories, by client id. */
async function state(db: TestDatabase, jobIds?: string[]) {
  const where = jobIds ? { importJobId: { in: jobIds } } : {};
  const rows = await db.db.trajectory.findMany({
    where,
    select: {
      id: true,
      externalId: true,
      parentId: true,
      forkStepIndex: true,
      attemptIndex: true,
      forkPointCount: true,
      attemptCount: true,
      pendingParentRef: true,
    },
  });
  const ext = new Map(rows.map((r) => [r.id, r.externalId]));
  const ids = new Set(rows.map((r) => r.id));
  const indexedIds = await db.db.$queryRawUnsafe<{ id: string }[]>(`SELECT "trajectory_id" AS id FROM "step_search_doc"`);
  return {
    links: rows
      .filter((r) => r.parentId)
      .map((r) => `${r.externalId}<-${ext.get(r.parentId!)}@${r.forkStepIndex}#${r.attemptIndex}`)
      .sort(),
    counts: rows.map((r) => `${r.externalId}:${r.forkPointCount}/${r.attemptCount}`).sort(),
    waiting: rows.filter((r) => r.pendingParentRef).length,
    forkPoints: await db.db.forkPoint.count({ where: { trajectoryId: { in: [...ids] } } }),
    indexed: indexedIds.filter((r) => ids.has(r.id)).length,
  };
}
