// Zip budget benchmark: how long the upload path takes to unpack a real-shaped archive (the shared fixtures, zipped
// as a job folder) versus how long it takes to refuse bombs (declared, lying, ratio, 20,000 entries), and how much
// memory each costs. Ratios are against unpacking the fixtures archive in the same run.
//   nice -n 5 npx tsx bench/zip-limits.ts [--fixtures ../shared/fixtures] [--reps 5]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync, zipSync } from "fflate";
import { unpackZipFile } from "../lib/importers/zip-file.ts";
import { declaredBomb, lyingBomb, manyEntries, ratioBomb } from "../tests/hostile/zip-bombs.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const FIXTURES = path.resolve(arg("fixtures", path.join(import.meta.dirname, "../../shared/fixtures")));
const REPS = Number(arg("reps", "5"));
const MB = 1024 * 1024;
const budget = { maxEntries: 10_000, maxTotalBytes: 2048 * MB };

function folderZip(dir: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[`job/${path.relative(dir, p)}`] = fs.readFileSync(p);
    }
  };
  walk(dir);
  return zipSync(files);
}

async function measure(name: string, zip: Uint8Array, fn: (file: string, dir: string) => Promise<unknown>) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-zipbench-"));
  const file = path.join(tmp, "in.zip");
  fs.writeFileSync(file, zip);
  const times: number[] = [];
  let peak = 0;
  let outcome = "";
  for (let r = 0; r < REPS; r++) {
    const out = path.join(tmp, `out${r}`);
    fs.mkdirSync(out);
    const rss0 = process.memoryUsage().rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - rss0)), 5);
    const t0 = performance.now();
    try {
      outcome = `${await fn(file, out)} files`;
    } catch (e) {
      outcome = `refused: ${(e as Error).message.slice(0, 70)}`;
    }
    times.push(performance.now() - t0);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss - rss0);
    fs.rmSync(out, { recursive: true, force: true });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  return { name, archiveKB: Math.round(zip.length / 1024), medianMs: times[Math.floor(times.length / 2)]!, peakMB: peak / MB, outcome };
}

if (!fs.existsSync(FIXTURES)) {
  console.error(`no fixtures at ${FIXTURES} (pass --fixtures)`);
  process.exit(2);
}
const fixtures = folderZip(FIXTURES);
const rows = [
  await measure("fixtures job folder (unpacked)", fixtures, (f, d) => unpackZipFile(f, d, budget)),
  await measure("fixtures, previous path (fflate unzipSync in memory, then written)", fixtures, async (f, d) => {
    const entries = unzipSync(fs.readFileSync(f));
    for (const [name, data] of Object.entries(entries)) {
      fs.mkdirSync(path.dirname(path.join(d, name)), { recursive: true });
      fs.writeFileSync(path.join(d, name), data);
    }
    return Object.keys(entries).length;
  }),
  await measure("declared bomb (2.5 GB claimed)", declaredBomb(2500 * MB), (f, d) => unpackZipFile(f, d, budget)),
  await measure("lying bomb (1 GB real, 4 KB declared)", lyingBomb(1024 * MB, 4096), (f, d) => unpackZipFile(f, d, budget)),
  await measure("ratio bomb (200 MB of zeros, honest)", ratioBomb(200 * MB), (f, d) => unpackZipFile(f, d, budget)),
  await measure("20,000 empty entries", manyEntries(20_000), (f, d) => unpackZipFile(f, d, budget)),
];
const base = rows[0]!.medianMs;
console.log(`node ${process.version}, ${os.cpus().length} cores, ${REPS} reps, median`);
console.log("| case | archive | median | × fixtures unpack | peak RSS growth | outcome |");
console.log("|---|---:|---:|---:|---:|---|");
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.archiveKB} KB | ${r.medianMs.toFixed(1)} ms | ${(r.medianMs / base).toFixed(2)} | ${r.peakMB.toFixed(0)} MB | ${r.outcome} |`,
  );
