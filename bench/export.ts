// Export throughput: a dataset of N generated trajectories (plus the shared third-party fixtures, when present)
// exported in every format, each in a fresh process. For each: MB/s, the ratio to writing the same bytes from
// memory in the same process (the floor any exporter pays), and peak RSS (VmHWM). A chat format's bytes include its
// provenance sidecar (rendered from the items beside the data; the baseline writes it from memory too).
// A frozen version's exports are stored when it is frozen (lib/services/curation/frozen-exports.ts); the bench times
// storing them in the setup, then measures both ways of exporting: streaming the stored bytes (what exporting a
// frozen version does) and rendering from the items (what a draft, or a version frozen before its exports were
// stored, does).
// Usage: tsx bench/export.ts [trajectories=100000] [--setup-only] [--pg] [--formats=openai,native] [--skip-rendered] [--reps=N]   (the database is
// built once and kept in bench/out, or $BENCH_OUT_DIR; with --pg in the PostgreSQL database
// ${BENCH_PG_PREFIX:-reterm_bench_export}_N on $TEST_DATABASE_URL's server)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import pg from "pg";
import fs from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { generateTrajectories } from "../lib/generator/generate.ts";
import { normalized } from "../lib/importers/util.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { importTrajectories } from "../lib/services/import/import-trajectories.ts";
import { importFiles } from "../lib/services/import/import-files.ts";
import { createDataset } from "../lib/services/curation/manage-datasets.ts";
import { freezeDataset } from "../lib/services/curation/freeze-dataset.ts";
import { openExport, writeExportFiles } from "../lib/services/curation/export-dataset.ts";
import { storeFrozenExports } from "../lib/services/curation/frozen-exports.ts";
import { renderExport } from "../lib/services/curation/render-export.ts";
import { findDatasetByName, findDatasetRules } from "../lib/db/repositories/datasets/datasets.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../lib/domain/curation/types.ts";
import { provenanceFile } from "../lib/exporters/registry.ts";
import type { DatabaseConfig } from "../lib/env.ts";
import { tuneForShortExport } from "../cli/export-process.ts";

const MB = 1024 * 1024;
// BENCH_OUT_DIR keeps the (large) database elsewhere, e.g. /tmp; --setup-only builds it and stops.
const outDir = process.env.BENCH_OUT_DIR ?? path.resolve(import.meta.dirname, "out");
fs.mkdirSync(outDir, { recursive: true });
// A child gets the database as a file path (SQLite) or a postgresql:// URL.
const configOf = (db: string): DatabaseConfig =>
  db.startsWith("postgres") ? { provider: "postgresql", url: db } : { provider: "sqlite", file: db, url: `file:${db}` };
// CPU time (user + system, all threads) since `from`: on a loaded machine it moves much less than wall time.
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};
// CPU time of this process's main thread alone (/proc, clock ticks of 10 ms): the rest of cpuSeconds is V8's GC
// helpers and libuv's file writes, which run beside it; the main thread is the export's critical path.
const mainThreadCpuSeconds = () => {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;

/** A child process's arguments after `flag` (format, database, dataset name), its database and its output file. */
async function child(flag: number) {
  const [format, dbFile, name] = process.argv.slice(flag + 1) as [ExportFormat, string, string];
  // As `reterm export` runs (cli/export-process.ts); the from-memory child too, so neither has V8 compiling beside it.
  tuneForShortExport();
  const db = createDb(configOf(dbFile));
  return {
    format,
    name,
    db,
    ctx: { db, actor: await ensureUser(db, "bench", "admin") },
    out: path.join(outDir, `export-${name}.${format}`),
  };
}

const one = Math.max(process.argv.indexOf("--one"), process.argv.indexOf("--one-rendered"));
if (one >= 0) {
  // Child: export one format (the measured process: its own heap limit, its own peak RSS), keep the file. --one is
  // the export as the app does it (the stored bytes of a frozen version); --one-rendered renders from the items.
  const { format, name, db, ctx, out } = await child(one);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuSeconds();
  const opened = await openExport(ctx, { name, format });
  if (process.argv[one] === "--one-rendered") {
    await opened.close(); // the stored read it started at open is not what this run measures
    const d = (await findDatasetByName(db, name))!;
    const rendered = renderExport(db, d, opened.version, format, null, await findDatasetRules(db, d.id));
    Object.assign(opened, { stored: false, pieces: rendered.pieces });
  }
  const { bytes } = await writeExportFiles(opened, out);
  const exportS = (performance.now() - t0) / 1000;
  console.log(
    JSON.stringify({
      format,
      bytes,
      exportS,
      exportCpuS: cpuSeconds(cpu0),
      mainThreadCpuS: mainThreadCpuSeconds() - main0,
      rssExport: peakRssMb(),
      stored: opened.stored ? 1 : 0,
    }),
  );
  await db.$disconnect();
  process.exit(0);
}
const mem = process.argv.indexOf("--from-memory");
if (mem >= 0) {
  // Child: the baseline — the same bytes, already in memory as strings, written through the same writer code. A
  // process of its own with room for the whole file (a 10^5 export is ~1 GB of strings; the export's 512 MB heap
  // cannot hold it, and the export's figures are taken in its own process anyway).
  const { format, name, db, ctx, out } = await child(mem);
  // Decoded piece by piece: a 10^5 export is longer than the longest string V8 allows.
  const data = fs.readFileSync(out);
  const decoder = new StringDecoder("utf8");
  const pieces: string[] = [];
  for (let i = 0; i < data.length; i += 256 * 1024) pieces.push(decoder.write(data.subarray(i, i + 256 * 1024)));
  const opened = await openExport(ctx, { name, format });
  // A stored export starts reading its first chunks at open: released before the clock starts, so none of that work
  // runs beside the baseline's write.
  await opened.close();
  // The sidecars the export wrote beside the data (the provenance JSONL of a chat format) are written from memory too.
  const sidecarFiles = new Map(
    opened.sidecars
      .filter((s) => s.kind === "provenance")
      .map((s) => [s, path.join(path.dirname(out), provenanceFile(path.basename(out)))]),
  );
  const sidecarText = new Map([...sidecarFiles].map(([s, f]) => [s, fs.readFileSync(f, "utf8")]));
  const fromMemory = {
    ...opened,
    async *pieces() {
      yield* pieces;
    },
    sidecars: opened.sidecars.map((s) => ({
      ...s,
      async *pieces() {
        yield sidecarText.get(s) ?? "";
      },
    })),
  };
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  await writeExportFiles(fromMemory, `${out}.mem`);
  const memS = (performance.now() - t1) / 1000;
  const memCpuS = cpuSeconds(cpu1);
  fs.rmSync(`${out}.mem`);
  fs.rmSync(out);
  for (const f of sidecarFiles.values()) fs.rmSync(f, { force: true });
  fs.rmSync(path.join(path.dirname(out), provenanceFile(path.basename(`${out}.mem`))), { force: true });
  console.log(JSON.stringify({ memS, memCpuS }));
  await db.$disconnect();
  process.exit(0);
}

const n = Number(process.argv[2] ?? 100_000);
const usePg = process.argv.includes("--pg");
const formatsArg = process.argv
  .find((a) => a.startsWith("--formats="))
  ?.slice("--formats=".length)
  .split(",");
let dbFile = path.join(outDir, `export-${n}.db`);
if (usePg) {
  const admin = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  const dbName = `${process.env.BENCH_PG_PREFIX ?? "reterm_bench_export"}_${n}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  if (!(await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [dbName])).rowCount)
    await client.query(`CREATE DATABASE "${dbName}"`);
  await client.end();
  admin.pathname = `/${dbName}`;
  dbFile = admin.toString();
}
const config = configOf(dbFile);
await setupDatabase(config);
const db = createDb(config);
const ctx = { db, actor: await ensureUser(db, "bench", "admin") };
const fresh = (await db.trajectory.count()) === 0;
if (fresh) {
  const t = performance.now();
  const records = (function* () {
    let i = 0;
    for (const tr of generateTrajectories({ count: n, seed: 7 })) yield normalized(tr, "native", "bench", ++i);
  })();
  const r = await importTrajectories(ctx, records, { origin: "cli", indexSearch: false });
  console.log(`setup: imported ${r.imported} generated trajectories in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const shared = path.resolve(import.meta.dirname, "../../shared/fixtures");
  if (fs.existsSync(shared)) {
    const s = await importFiles(ctx, [shared], { origin: "cli", runName: "shared-fixtures" });
    console.log(`setup: imported ${s.report.imported} trajectories from the shared fixtures`);
  } else console.log(`setup: ${shared} absent — generated data only`);
}
// The label formats are measured on bench-labelled (every label captured at freezing), the others on bench-all.
const LABEL_FORMATS: readonly string[] = ["labels-csv", "labels-jsonl"];
// Labels, so the label formats have rows: a recovery-quality label on every generated attempt and an error category
// on a step range of every generated failed trajectory, by one annotator (seeded once, before bench-labelled is frozen).
if ((await db.annotation.count()) === 0) {
  const t = performance.now();
  const annotator = await ensureUser(db, "bench-annotator", "annotator");
  const quality = await db.labelSchema.findUniqueOrThrow({ where: { key: "recovery-quality" } });
  const category = await db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
  const rows = await db.trajectory.findMany({
    where: { run: { name: { not: "shared-fixtures" } }, OR: [{ parentId: { not: null } }, { outcome: "failed" }] },
    select: { id: true, parentId: true, outcome: true },
    orderBy: { id: "asc" },
  });
  const labels = rows.flatMap((r, i) => [
    ...(r.parentId
      ? [
          {
            schemaId: quality.id,
            annotatorId: annotator.id,
            targetType: "attempt",
            targetKey: `attempt:${r.id}`,
            trajectoryId: r.id,
            value: String(i % 4),
            comment: i % 10 === 0 ? `checked, "by hand"\nsecond line` : null,
          },
        ]
      : []),
    ...(r.outcome === "failed"
      ? [
          {
            schemaId: category.id,
            annotatorId: annotator.id,
            targetType: "step_range",
            targetKey: `steps:${r.id}:1-2`,
            trajectoryId: r.id,
            stepStart: 1,
            stepEnd: 2,
            value: "command-error",
          },
        ]
      : []),
  ]);
  for (let i = 0; i < labels.length; i += 5_000) await db.annotation.createMany({ data: labels.slice(i, i + 5_000) });
  console.log(`setup: seeded ${labels.length} labels in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
for (const [name, filter] of [
  ["bench-all", ""],
  ["bench-fixtures", "runId="],
  ["bench-labelled", ""],
] as const) {
  const existing = await findDatasetByName(db, name);
  if (existing?.frozenCount) continue;
  let f: string = filter;
  if (name === "bench-fixtures") {
    const run = await db.run.findUnique({ where: { name: "shared-fixtures" } });
    if (!run) continue;
    f = `runId=${run.id}`;
  }
  const t = performance.now();
  // bench-all and bench-labelled are the N generated trajectories (with the fixtures, N = 10^5 would pass the 10^5 a
  // dataset may hold); bench-labelled is frozen after the labels were seeded, so it captures them (bench-all, in a
  // database built before labels were seeded, did not).
  const rules =
    name !== "bench-fixtures"
      ? {
          source: "selection" as const,
          ids: (
            await db.trajectory.findMany({
              where: { run: { name: { not: "shared-fixtures" } } },
              select: { id: true },
              orderBy: { id: "asc" },
              take: n,
            })
          ).map((r) => r.id),
        }
      : { source: "filter" as const, filter: f };
  // A setup stopped during a freeze left the dataset as a draft: it is frozen now.
  const items = existing ? (existing.latest?.itemCount ?? 0) : (await createDataset(ctx, { name, rules })).built.items.length;
  const t2 = performance.now();
  await freezeDataset(ctx, { name });
  console.log(
    `setup: dataset ${name}: ${items} items; build ${((t2 - t) / 1000).toFixed(1)} s, freeze (labels, manifest with token counts) ${((performance.now() - t2) / 1000).toFixed(1)} s`,
  );
}
// Store the frozen versions' exports (what `reterm dataset freeze` does after freezing); formats already stored are
// skipped, so a database built before this step gets them here.
for (const name of ["bench-all", "bench-fixtures", "bench-labelled"]) {
  const d = await findDatasetByName(db, name);
  if (!d?.latest?.frozenAt) continue;
  for (const format of EXPORT_FORMATS.filter((f) => name !== "bench-labelled" || LABEL_FORMATS.includes(f))) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const [r] = await storeFrozenExports(ctx, { name, version: d.latest.version, formats: [format] });
    if (r?.stored)
      console.log(
        `setup: stored ${name} ${format}: ${(r.bytes / MB).toFixed(1)} MB in ${r.chunks} chunks, ${((performance.now() - t) / 1000).toFixed(1)} s (CPU ${cpuSeconds(cpu).toFixed(1)} s)`,
      );
  }
}
if (usePg && fresh) await db.$executeRawUnsafe("VACUUM ANALYZE");
await db.$disconnect();
if (process.argv.includes("--setup-only")) process.exit(0);

const skipRendered = process.argv.includes("--skip-rendered");
const reps = Math.max(1, Number(process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length) ?? 1));
/** The run with the median `key` (the lower middle one for an even count), so its other figures go with it. */
const medianRun = (runs: Record<string, number>[], key: string) => [...runs].sort((a, b) => a[key]! - b[key]!)[(runs.length - 1) >> 1]!;
if (reps > 1) console.log(`(stored export and from-memory write: the median of ${reps} alternating runs each)`);
const sha256Of = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
for (const name of ["bench-all", "bench-fixtures", "bench-labelled"]) {
  console.log(`\n${name}`);
  console.log(
    "format        MB     stored: export s   MB/s   ratio   peak RSS MB | rendered: export s   ratio   peak RSS MB | from-memory s | CPU s stored / rendered / from memory | same bytes",
  );
  for (const format of EXPORT_FORMATS.filter(
    (f) => (!formatsArg || formatsArg.includes(f)) && (name !== "bench-labelled" || LABEL_FORMATS.includes(f)),
  )) {
    const run = (heap: number, mode: string) => {
      const child = spawnSync(
        process.execPath,
        ["--import", "tsx", `--max-old-space-size=${heap}`, import.meta.filename, mode, format, dbFile, name],
        { encoding: "utf8", maxBuffer: 64 * MB },
      );
      const line = child.stdout.trim().split("\n").at(-1) ?? "";
      if (child.status !== 0 || !line.startsWith("{")) throw new Error(`${format} ${mode}: failed ${child.stderr.slice(-500)}`);
      return JSON.parse(line) as Record<string, number>;
    };
    const out = path.join(outDir, `export-${name}.${format}`);
    let line: string;
    try {
      // Rendered first (its file is kept aside to compare), then the stored bytes, then the same bytes from memory.
      let rendered: Record<string, number> | null = null;
      let renderedSha = "";
      if (!skipRendered) {
        rendered = run(512, "--one-rendered");
        renderedSha = sha256Of(out);
        fs.rmSync(out);
      }
      // With --reps=N the stored export and the from-memory write alternate N times (the latter reads, then deletes, the
      // file the former wrote) and each is reported by its median run: one 64 MB write with its fsync varies by half.
      const storedRuns: Record<string, number>[] = [];
      const memRuns: Record<string, number>[] = [];
      let same = "not compared";
      for (let rep = 0; rep < reps; rep++) {
        storedRuns.push(run(512, "--one"));
        if (rep === 0 && !skipRendered) same = sha256Of(out) === renderedSha ? "identical" : "DIFFERENT";
        memRuns.push(run(8192, "--from-memory"));
      }
      const stored = medianRun(storedRuns, "exportS");
      const mem = medianRun(memRuns, "memS");
      const mb = stored.bytes! / MB;
      const ratio = (x: number) => `${(x / Math.max(mem.memS!, 1e-3)).toFixed(2)}×`;
      line =
        `${format.padEnd(13)} ${mb.toFixed(1).padStart(7)} ${stored.exportS!.toFixed(2).padStart(9)}${stored.stored ? "" : " (NOT STORED)"} ${(mb / stored.exportS!).toFixed(1).padStart(7)} ${ratio(stored.exportS!).padStart(7)} ${stored.rssExport!.toFixed(0).padStart(8)} | ` +
        (rendered
          ? `${rendered.exportS!.toFixed(2).padStart(9)} ${ratio(rendered.exportS!).padStart(7)} ${rendered.rssExport!.toFixed(0).padStart(8)}`
          : "skipped") +
        ` | ${mem.memS!.toFixed(3).padStart(8)} | ${stored.exportCpuS!.toFixed(2)} / ${rendered ? rendered.exportCpuS!.toFixed(2) : "—"} / ${mem.memCpuS!.toFixed(2)} | ${same}`;
    } catch (e) {
      line = (e as Error).message;
    }
    console.log(line);
  }
}
