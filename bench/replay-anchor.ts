// Our trajectory page against asciinema-player, in ONE run on the same machine, with the shared harness
// (../shared/bench/replay-anchor/: its recordings, its measuring code, its rules — first frame from navigation
// start, a seek counts when the screen shows the expected text). This script only orchestrates:
//   1. generates the harness's recordings (gen-casts.mjs: small / medium / large) into <tmp>/casts,
//   2. imports them (and the shared fixture server__v3-big.cast when ../shared exists) with our CLI into a fresh
//      SQLite database, as a user would,
//   3. builds the app (production, its own dist dir) unless --skip-build, and starts it,
//   4. per recording, runs the harness on asciinema-player, on our page opened at the start (the same start time
//      the reference page opens at) and on our page opened by a deep link at 90 % of the recording — one rep of
//      each in turn, so all three see the same machine, ours and the deep link swapping places every rep
//      (--in-blocks: all reps of one page, then the next),
//   5. prints one markdown table with ratios (ours / asciinema-player) and whether every seek matched.
//
// Setup (never `playwright install`; the harness drives /usr/bin/chromium):
//   T=/tmp/reterm-anchor; npm install --prefix $T asciinema-player@3 playwright-core
//   nice -n 5 npx tsx bench/replay-anchor.ts --tmp $T [--reps 3] [--port 6051] [--dist .next-anchor] [--skip-build]
//                                             [--only small,medium,large,server__v3-big] [--no-deep] [--in-blocks]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitForServer } from "./wait-for-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const HARNESS = path.resolve(ROOT, "../shared/bench/replay-anchor");
const FIXTURE = path.resolve(ROOT, "../shared/fixtures/asciicast/server__v3-big.cast");
const GENERATED = ["small", "medium", "large"] as const;

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const TMP = path.resolve(arg("tmp", path.join(os.tmpdir(), "reterm-anchor")));
const REPS = Number(arg("reps", "3"));
const PORT = Number(arg("port", "6051"));
const DIST = arg("dist", ".next-anchor");
const ONLY = arg("only", "") ? arg("only", "").split(",") : null;
const DEEP = !flag("no-deep");
const IN_BLOCKS = flag("in-blocks");
const NODE_MODULES = path.join(TMP, "node_modules");
const CASTS = path.join(TMP, "casts");
const OUT = path.join(TMP, "out");
const DB_FILE = path.join(TMP, "anchor.db");
const base = `http://127.0.0.1:${PORT}`;
const log = (m: string) => console.log(`[replay-anchor] ${m}`);

function run(cmd: string, args: string[], env: Record<string, string> = {}, quiet = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!quiet) process.stdout.write(d);
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

// ---- recordings --------------------------------------------------------------------------------------------
interface Recording {
  name: string;
  file: string;
  /** Where the reference page opens (s): the harness's own rule (0.02 s for generated, just after the first output otherwise). */
  startS: number;
  durationS: number;
}

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[@-_0-9=>]/g, "");

/** The harness's start time for a non-generated recording (run.mjs: first visible output + ≤ 1 ms). */
function externalTimes(file: string): { startS: number; durationS: number } {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const v3 = JSON.parse(lines[0]!).version === 3;
  const events: [number, string, string][] = [];
  let t = 0;
  for (const line of lines.slice(1)) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [time, code, data] = JSON.parse(line) as [number, string, string];
    t = v3 ? t + time : time;
    events.push([t, code, data]);
  }
  const first = events.find((e) => e[1] === "o" && stripAnsi(e[2]).trim())!;
  const next = events.find((e) => e[0] > first[0]);
  return { startS: first[0] + Math.min(0.001, ((next?.[0] ?? first[0] + 0.002) - first[0]) / 2), durationS: events.at(-1)![0] };
}

async function recordings(): Promise<Recording[]> {
  const wanted = GENERATED.filter((n) => !ONLY || ONLY.includes(n));
  const missing = wanted.filter(
    (n) => !fs.existsSync(path.join(CASTS, `${n}.cast`)) || !fs.existsSync(path.join(CASTS, `${n}.index.json`)),
  );
  if (missing.length) await run(process.execPath, [path.join(HARNESS, "gen-casts.mjs"), CASTS, ...missing]);
  const recs: Recording[] = wanted.map((name) => {
    const idx = JSON.parse(fs.readFileSync(path.join(CASTS, `${name}.index.json`), "utf8")) as { duration: number };
    return { name, file: path.join(CASTS, `${name}.cast`), startS: 0.02, durationS: idx.duration };
  });
  if (fs.existsSync(FIXTURE) && (!ONLY || ONLY.includes("server__v3-big")))
    recs.push({ name: "server__v3-big", file: FIXTURE, ...externalTimes(FIXTURE) });
  return recs;
}

// ---- app ---------------------------------------------------------------------------------------------------
async function importAll(recs: Recording[]): Promise<void> {
  fs.rmSync(DB_FILE, { force: true });
  const env = { DATABASE_URL: `file:${DB_FILE}`, RETERM_USER: "bench" };
  const cli = [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--max-old-space-size=1024", path.join(ROOT, "cli/reterm.ts")];
  await run(process.execPath, [...cli, "migrate"], env, true);
  const t0 = performance.now();
  const out = await run(process.execPath, [...cli, "import", ...recs.map((r) => r.file), "--json"], env, true);
  const summary = JSON.parse(out.trim().split("\n").at(-1)!) as { imported: number; failed: number; warnings: string[] };
  if (summary.imported !== recs.length) throw new Error(`import: expected ${recs.length} trajectories, got ${JSON.stringify(summary)}`);
  log(
    `imported ${summary.imported} recordings with the CLI in ${((performance.now() - t0) / 1000).toFixed(1)} s (${summary.warnings.length} warnings)`,
  );
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        NEXT_DIST_DIR: DIST,
        DATABASE_URL: `file:${DB_FILE}`,
        RETERM_DEMO: "0",
        RETERM_USER: "bench",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );
  return waitForServer(server, base, 150);
}

/** Trajectory id per recording: the cast importer names the task after the file. */
async function trajectoryIds(recs: Recording[]): Promise<Map<string, string>> {
  const res = await fetch(`${base}/api/v1/trajectories?perPage=100`);
  if (!res.ok) throw new Error(`listing trajectories: HTTP ${res.status}`);
  const body = (await res.json()) as { rows: { id: string; taskName: string }[] };
  const ids = new Map<string, string>();
  for (const r of recs) {
    const row = body.rows.find((x) => x.taskName === r.name);
    if (!row) throw new Error(`no trajectory for ${r.name} among ${JSON.stringify(body.rows.map((x) => x.taskName))}`);
    ids.set(r.name, row.id);
  }
  return ids;
}

/** Opens each page once (not measured) so the first measured rep is not also the server's first compile/cache fill. */
async function warmUp(url: string): Promise<void> {
  await fetch(url).then(
    (r) => r.text(),
    () => "",
  );
}

// ---- harness -----------------------------------------------------------------------------------------------
interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}
interface HarnessResult {
  name: string;
  bytes: number;
  seeks: { label: string; time: number }[];
  runs: {
    firstFrameMs?: number;
    heap?: { usedMB: number };
    seeks: Record<string, { ms: number; ok: boolean; preMatched: boolean }>;
    error?: string;
  }[];
  summary: { firstFrameMs: Stat | null; heapUsedMB: Stat | null; seeks: Record<string, Stat & { failures: number; preMatched: number }> };
}

async function harness(
  rec: Recording,
  page: "reference" | "ours" | "deep",
  id: string | undefined,
  reps = REPS,
  tag = "",
): Promise<HarnessResult> {
  const out = path.join(OUT, `${rec.name}.${page}${tag}.json`);
  const args = [
    path.join(HARNESS, "run.mjs"),
    "--node-modules",
    NODE_MODULES,
    "--casts",
    CASTS,
    "--only",
    rec.name,
    "--reps",
    String(reps),
    "--out",
    out,
  ];
  if (!GENERATED.includes(rec.name as (typeof GENERATED)[number])) args.push("--cast", rec.file);
  if (page !== "reference") {
    const t = page === "deep" ? rec.durationS * 0.9 : rec.startS;
    args.push("--page-url", `${base}/trajectories/${id}?t=${t.toFixed(4)}`, "--adapter", path.join(HARNESS, "reterm-adapter.mjs"));
  }
  log(`${rec.name}: ${page} …`);
  await run(process.execPath, args, {}, true);
  return (JSON.parse(fs.readFileSync(out, "utf8")) as { results: HarnessResult[] }).results[0]!;
}

/** Stats as the harness computes them (measure.mjs `stats`). */
function statOf(values: (number | undefined)[]): Stat | null {
  const v = values.filter((x): x is number => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return { median: v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2, min: v[0]!, max: v.at(-1)!, n: v.length };
}

/** One result from single-rep results of the same page, with the summary recomputed the harness's way. */
function merged(parts: HarnessResult[]): HarnessResult {
  const runs = parts.flatMap((p) => p.runs);
  const seeks = parts[0]!.seeks;
  return {
    ...parts[0]!,
    runs,
    summary: {
      firstFrameMs: statOf(runs.map((r) => r.firstFrameMs)),
      heapUsedMB: statOf(runs.map((r) => r.heap?.usedMB)),
      seeks: Object.fromEntries(
        seeks.map((s) => {
          const st = statOf(runs.map((r) => (r.seeks[s.label]?.ok ? r.seeks[s.label]!.ms : undefined)));
          return [
            s.label,
            {
              ...(st ?? { median: NaN, min: NaN, max: NaN, n: 0 }),
              failures: runs.filter((r) => !r.seeks[s.label]?.ok).length,
              preMatched: runs.filter((r) => r.seeks[s.label]?.preMatched).length,
            },
          ];
        }),
      ),
    },
  };
}

// ---- report ------------------------------------------------------------------------------------------------
const fmt = (s: Stat | null | undefined, digits = 0) =>
  s ? `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})` : "n/a";
const ratio = (a: Stat | null | undefined, b: Stat | null | undefined) => (a && b ? `**${(a.median / b.median).toFixed(2)}×**` : "n/a");

function allSeekMs(r: HarnessResult): number[] {
  return r.runs.flatMap((run) =>
    Object.values(run.seeks)
      .filter((s) => s.ok)
      .map((s) => s.ms),
  );
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) : NaN;
}
function bad(r: HarnessResult): number {
  const seeks = Object.values(r.summary.seeks);
  return seeks.reduce((n, s) => n + s.failures + s.preMatched, 0) + r.runs.filter((x) => x.error).length;
}
function seekCount(r: HarnessResult): number {
  return r.runs.reduce((n, x) => n + Object.keys(x.seeks).length, 0);
}

function table(results: { rec: Recording; ref: HarnessResult; ours: HarnessResult; deep?: HarnessResult }[]): string {
  let md = `| recording | metric | asciinema-player | ReTerm Studio | ours / asciinema |\n|---|---|---|---|---|\n`;
  for (const { rec, ref, ours, deep } of results) {
    const head = `${rec.name} (${(ref.bytes / 1e6).toFixed(2)} MB)`;
    md += `| ${head} | first frame, ms | ${fmt(ref.summary.firstFrameMs)} | ${fmt(ours.summary.firstFrameMs)} | ${ratio(ours.summary.firstFrameMs, ref.summary.firstFrameMs)} |\n`;
    for (const s of ref.seeks) {
      md += `| | ${s.label} (t=${s.time.toFixed(s.time < 1 ? 4 : 0)} s), ms | ${fmt(ref.summary.seeks[s.label])} | ${fmt(ours.summary.seeks[s.label])} | ${ratio(ours.summary.seeks[s.label], ref.summary.seeks[s.label])} |\n`;
    }
    const mRef = median(allSeekMs(ref));
    const mOurs = median(allSeekMs(ours));
    md += `| | seek median (all seeks), ms | ${mRef.toFixed(0)} | ${mOurs.toFixed(0)} | **${(mOurs / mRef).toFixed(2)}×** |\n`;
    md += `| | JS heap after load (GC), MB | ${fmt(ref.summary.heapUsedMB, 1)} | ${fmt(ours.summary.heapUsedMB, 1)} | ${ratio(ours.summary.heapUsedMB, ref.summary.heapUsedMB)} |\n`;
    md += `| | seeks not matching (failed + already on screen) | ${bad(ref)} of ${seekCount(ref)} | ${bad(ours)} of ${seekCount(ours)} | |\n`;
    if (deep) {
      md += `| | deep link \`?t=\` at 90 %: first frame, ms (vs ours at the start) | | ${fmt(deep.summary.firstFrameMs)} | ${ratio(deep.summary.firstFrameMs, ours.summary.firstFrameMs)} of ours at the start |\n`;
      md += `| | deep link: seeks not matching | | ${bad(deep)} of ${seekCount(deep)} | |\n`;
    }
  }
  return md;
}

// ---- main --------------------------------------------------------------------------------------------------
if (!fs.existsSync(path.join(HARNESS, "run.mjs"))) {
  console.error(`The shared harness is not at ${HARNESS}; nothing to compare against.`);
  process.exit(2);
}
if (!fs.existsSync(path.join(NODE_MODULES, "asciinema-player")) || !fs.existsSync(path.join(NODE_MODULES, "playwright-core"))) {
  console.error(`Install the reference first: npm install --prefix ${TMP} asciinema-player@3 playwright-core`);
  process.exit(2);
}
fs.mkdirSync(OUT, { recursive: true });
const loadBefore = os.loadavg();
log(`start ${new Date().toISOString()}, load ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, ${os.cpus().length} cores, reps ${REPS}`);
const recs = await recordings();
await importAll(recs);
if (!flag("skip-build")) {
  log(`building into ${DIST} …`);
  await run(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], { NEXT_DIST_DIR: DIST }, true);
}
const server = await startServer();
const results: { rec: Recording; ref: HarnessResult; ours: HarnessResult; deep?: HarnessResult }[] = [];
try {
  const ids = await trajectoryIds(recs);
  for (const rec of recs) {
    await warmUp(`${base}/trajectories/${ids.get(rec.name)}?t=${rec.startS}`);
    if (DEEP) await warmUp(`${base}/trajectories/${ids.get(rec.name)}?t=${(rec.durationS * 0.9).toFixed(4)}`);
    if (IN_BLOCKS) {
      // All reps of one page, then the next (before session 11): a machine that speeds up or slows down between the
      // blocks shows up as a difference between the pages.
      const ref = await harness(rec, "reference", undefined);
      const ours = await harness(rec, "ours", ids.get(rec.name));
      const deep = DEEP ? await harness(rec, "deep", ids.get(rec.name)) : undefined;
      results.push({ rec, ref, ours, deep });
      continue;
    }
    // Alternated rep by rep (one fresh context each, as in blocks), so the three pages see the same machine. Our two
    // pages swap places every rep, so neither always runs right after the other (its browser closing, its requests
    // just served) and the deep-link ratio does not depend on the order. The deep link is warmed up as the start is.
    const parts = { ref: [] as HarnessResult[], ours: [] as HarnessResult[], deep: [] as HarnessResult[] };
    for (let i = 0; i < REPS; i++) {
      parts.ref.push(await harness(rec, "reference", undefined, 1, `.${i}`));
      const order = DEEP && i % 2 ? (["deep", "ours"] as const) : (["ours", "deep"] as const);
      for (const page of order) {
        if (page === "ours") parts.ours.push(await harness(rec, "ours", ids.get(rec.name), 1, `.${i}`));
        else if (DEEP) parts.deep.push(await harness(rec, "deep", ids.get(rec.name), 1, `.${i}`));
      }
    }
    results.push({ rec, ref: merged(parts.ref), ours: merged(parts.ours), deep: DEEP ? merged(parts.deep) : undefined });
  }
} finally {
  server.kill("SIGTERM");
}
const loadAfter = os.loadavg();
const md = table(results);
fs.writeFileSync(path.join(OUT, "anchor-summary.md"), md);
console.log(`\n${md}`);
log(
  `end ${new Date().toISOString()}, load before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}; raw JSON in ${OUT}`,
);
