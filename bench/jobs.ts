// Job throughput: exports per minute with 1 and 2 workers (`npm run worker` processes, as deployed) on one PostgreSQL
// database and a local file storage. A dataset of N generated trajectories; K exports of it queued at once by a
// process that runs no jobs (RETERM_JOBS=off, as a web replica); the clock runs from the first enqueue to the last
// export succeeded. Workers are started and ready before the clock starts. The baseline in the same run is one worker:
// the figure is the ratio of 2 workers' throughput to it (the ideal on 2 cores is 2×).
// Usage: tsx bench/jobs.ts [trajectories=2000] [--exports=12] [--format=openai] [--workers=1,2] [--sqlite]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
process.env.RETERM_JOBS = "off";
const storage = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-bench-jobs-"));
process.env.RETERM_STORAGE = storage;
const { createTestDatabase, postgres } = await import("../tests/helpers/test-db.ts");
const { generateTrajectories } = await import("../lib/generator/generate.ts");
const { normalized } = await import("../lib/importers/util.ts");
const { importTrajectories } = await import("../lib/services/import/import-trajectories.ts");
const { createDataset } = await import("../lib/services/curation/manage-datasets.ts");
const { startExportJob, getExportJob } = await import("../lib/services/curation/export-jobs.ts");
const { stopAllJobRunners } = await import("../lib/jobs/index.ts");

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
const K = Number(opt("exports", "12"));
const FORMAT = opt("format", "openai") as "openai";
const WORKERS = opt("workers", "1,2").split(",").map(Number);
const provider = args.includes("--sqlite") ? "sqlite" : "postgresql";
if (provider === "postgresql" && !postgres.available) {
  console.error(`skipped: ${postgres.reason}`);
  process.exit(0);
}

const t = await createTestDatabase(provider);
const t0 = Date.now();
const rows = [...generateTrajectories({ count: N, seed: 41, recordingRate: 0.3 })].map((r, i) =>
  normalized(r, "native", "bench.jsonl", i + 1),
);
await importTrajectories(t.ctx, rows, { origin: "cli", indexSearch: false });
await createDataset(t.ctx, { name: "bench-jobs", rules: { source: "filter", filter: "" } });
console.log(`setup: ${N} trajectories on ${provider} in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${K} ${FORMAT} exports per run`);

function startWorker(): Promise<ChildProcess> {
  const w = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "cli/worker.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, DATABASE_URL: t.config.url, RETERM_JOBS: "on", RETERM_STORAGE: storage },
  });
  return new Promise((resolve, reject) => {
    w.stdout!.on("data", (d: Buffer) => String(d).includes("running jobs") && resolve(w));
    w.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
  });
}

const results: { workers: number; seconds: number; perMinute: number }[] = [];
for (const n of WORKERS) {
  const workers = await Promise.all(Array.from({ length: n }, startWorker));
  const start = Date.now();
  const jobs = [];
  for (let i = 0; i < K; i++) jobs.push(await startExportJob(t.ctx, { name: "bench-jobs", format: FORMAT }));
  for (const j of jobs) {
    for (let s = await getExportJob(t.ctx, j.id); s.status === "running"; s = await getExportJob(t.ctx, j.id))
      await new Promise((r) => setTimeout(r, 100));
    const s = await getExportJob(t.ctx, j.id);
    if (s.status !== "succeeded" && s.status !== "expired") throw new Error(`export ${j.id}: ${s.status} ${s.error}`);
  }
  const seconds = (Date.now() - start) / 1000;
  results.push({ workers: n, seconds, perMinute: (K / seconds) * 60 });
  console.log(`${n} worker(s): ${K} exports in ${seconds.toFixed(1)} s = ${((K / seconds) * 60).toFixed(1)} exports/min`);
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode === null ? w.once("exit", r) : r(null)))));
}
const base = results.find((r) => r.workers === 1);
if (base) for (const r of results) console.log(`ratio ${r.workers} workers / 1: ${(r.perMinute / base.perMinute).toFixed(2)}×`);
console.log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
await stopAllJobRunners();
await t.drop();
fs.rmSync(storage, { recursive: true, force: true });
