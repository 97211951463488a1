// Import throughput: generated native JSONL → SQLite and PostgreSQL, against a parse-only pass over the same file
// in the same run. Usage: tsx bench/import.ts [trajectories=100000] [--skip-pg]
// --file=PATH: measure an existing native JSONL file (e.g. an export of a user's own data) instead.
// --fixtures=K: instead of generated data, the real third-party trajectories in ../shared/fixtures (every format,
//   read by the format importers) written K times as native JSONL, each copy under its own ids — users' shapes
//   (real step counts, output sizes, ANSI, recordings) at a measurable size.
// Prints MB/s, trajectories/s, the ratio to parse-only, and peak RSS (VmHWM) of this process.
// --search-words: the search index's per-trajectory word sets (PostgreSQL's step_search_doc.words) of the shared
//   fixtures against as many generated trajectories: words and lexeme bytes per trajectory.
// --memory: only the SQLite import (fresh process), to measure peak RSS on a large file, e.g.
//   tsx bench/import.ts 160000 --memory   (≈2 GB of JSONL); --memory --pg: only the PostgreSQL import, the same way.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { generateTrajectories } from "../lib/generator/generate.ts";
import { nativeImporter } from "../lib/importers/native.ts";
import { fileSource } from "../lib/importers/source.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { importTrajectories } from "../lib/services/import/import-trajectories.ts";
import { addDetectedErrors, prepareTrajectory } from "../lib/db/bulk/rows.ts";
import { sqliteCodec } from "../lib/db/bulk/sqlite-writer.ts";
import type { DatabaseConfig } from "../lib/env.ts";
import type { TrajectoryInput } from "../lib/domain/trajectory.ts";
import { docWords, searchRows } from "../lib/db/repositories/search/text.ts";
import { fixtureTrajectories, writeFixtureCopies } from "./fixture-copies.ts";

const fixturesArg = process.argv.find((a) => a.startsWith("--fixtures"));
const copies = fixturesArg ? Number(fixturesArg.split("=")[1] ?? 50) : 0;
let n = fixturesArg ? 0 : Number(process.argv[2] ?? 100_000);
const memoryOnly = process.argv.includes("--memory");
const memoryPg = memoryOnly && process.argv.includes("--pg");
const skipPg = process.argv.includes("--skip-pg") || (memoryOnly && !memoryPg);
// Generated data lives outside the repository.
const outDir = process.env.BENCH_OUT ?? path.join(os.tmpdir(), "reterm-bench");
fs.mkdirSync(outDir, { recursive: true });
const fileArg = process.argv.find((a) => a.startsWith("--file="))?.slice("--file=".length);
const file = fileArg
  ? path.resolve(fileArg)
  : copies
    ? path.join(outDir, `fixtures-x${copies}.jsonl`)
    : path.join(outDir, `native-${n}.jsonl`);
const MB = 1024 * 1024;

function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / MB;
}

if (process.argv[2] === "--search-words") {
  const measure = (label: string, ts: TrajectoryInput[]) => {
    const sizes = ts.map((t) => docWords(searchRows(t.steps)).split(" ").filter(Boolean));
    const words = sizes.reduce((a, w) => a + w.length, 0);
    const bytes = sizes.reduce((a, w) => a + w.reduce((b, x) => b + x.length + 4, 0), 0);
    console.log(
      `${label}: ${ts.length} trajectories, ${(words / ts.length).toFixed(0)} words each (max ${Math.max(...sizes.map((w) => w.length))}), ${(bytes / ts.length).toFixed(0)} lexeme bytes each`,
    );
  };
  const real = await fixtureTrajectories();
  measure("shared fixtures", real);
  measure("generated", [...generateTrajectories({ count: real.length, seed: 1 })]);
  process.exit(0);
}
if (process.argv[2] === "--write-fixtures") {
  await writeFixtureCopies(process.argv[3]!, Number(process.argv[4]));
  process.exit(0);
}
if (copies && !fs.existsSync(file)) {
  // In a child process, so the fixtures read here never count in this process's peak RSS.
  const r = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, "--write-fixtures", file, String(copies)], {
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (fileArg && !fs.existsSync(file)) {
  console.error(`--file: ${file} does not exist`);
  process.exit(1);
}
if (copies || fileArg) {
  n = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) if (line) n++;
}

if (!fs.existsSync(file)) {
  const out = fs.openSync(file, "w");
  let buf = "";
  for (const t of generateTrajectories({ count: n, seed: 1 })) {
    buf += `${JSON.stringify(t)}\n`;
    if (buf.length > 8 * MB) {
      fs.writeSync(out, buf);
      buf = "";
    }
  }
  fs.writeSync(out, buf);
  fs.closeSync(out);
}
const bytes = fs.statSync(file).size;
console.log(
  `file: ${path.basename(file)}${copies ? ` (shared fixtures × ${copies})` : ""} — ${n.toLocaleString("en-US")} trajectories, ${(bytes / MB).toFixed(1)} MB, ${os.cpus().length} cores, node ${process.version}`,
);

async function timed(label: string, fn: () => Promise<number>): Promise<number> {
  const t0 = performance.now();
  const count = await fn();
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `${label.padEnd(34)} ${secs.toFixed(2).padStart(7)} s  ${(bytes / MB / secs).toFixed(1).padStart(6)} MB/s  ${Math.round(count / secs)
      .toLocaleString("en-US")
      .padStart(8)} traj/s  peak RSS ${peakRssMb().toFixed(0)} MB`,
  );
  return secs;
}

const parseSecs = memoryOnly
  ? NaN
  : await timed("parse-only (read + JSON + zod)", async () => {
      let c = 0;
      for await (const r of nativeImporter.read(await fileSource(file), {})) if (r.ok) c++;
      return c;
    });
if (!memoryOnly)
  await timed("parse + prepare rows (hash, detect)", async () => {
    let c = 0;
    for await (const r of nativeImporter.read(await fileSource(file), {}))
      if (r.ok) {
        addDetectedErrors(prepareTrajectory(r.value, sqliteCodec, null), sqliteCodec);
        c++;
      }
    return c;
  });

async function importInto(config: DatabaseConfig, label: string): Promise<void> {
  if (memoryOnly) {
    // Migrate in a separate process, as `reterm migrate` would: the import process then never loads the engine.
    const r = spawnSync(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../cli/reterm.ts"), "migrate"], {
      env: { ...process.env, DATABASE_URL: config.provider === "sqlite" ? `file:${config.file}` : config.url },
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error("migrate failed");
  }
  await setupDatabase(config);
  const db = createDb(config);
  const actor = await ensureUser(db, "bench", "admin");
  const secs = await timed(`import into ${label}`, async () => {
    const r = await importTrajectories({ db, actor }, nativeImporter.read(await fileSource(file), {}), {
      origin: "cli",
      threaded: true,
      indexSearch: false,
    });
    if (r.failed) throw new Error(`${r.failed} failed: ${JSON.stringify(r.errors.slice(0, 3))}`);
    return r.imported;
  });
  if (!memoryOnly) console.log(`  ratio to parse-only: ${(secs / parseSecs).toFixed(2)}×`);
  await db.$disconnect();
}

const sqliteFile = path.join(outDir, `bench-import-${process.pid}.db`);
if (!memoryPg) await importInto({ provider: "sqlite", file: sqliteFile, url: `file:${sqliteFile}` }, "SQLite");
for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) fs.rmSync(f, { force: true });

if (!skipPg) {
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `reterm_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await importInto({ provider: "postgresql", url: url.toString() }, "PostgreSQL");
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  } catch (e) {
    console.log(`PostgreSQL skipped: ${(e as Error).message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
