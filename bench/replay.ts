// Replay benchmark in a real browser: a 2,000-step trajectory with 20 MB of output, replayed (a) from a real
// recording and (b) as a session synthesized from its steps. Measures, in the same run on the same data:
//   - first frame (navigation start → terminal shows content): first-ever view (no stored replay layout), cold (first
//     view after a server restart, layout stored) and warm;
//   - seeks to 40 random points with keyframes (range fetch + keyframe + ≤ one interval of events), and the same
//     40 seeks the way asciinema-player seeks (whole recording in memory, reset, replay from the start);
//   - bytes fetched and JS heap for both, and whether both strategies end on the same screen.
// Needs a production build: NEXT_DIST_DIR=.next-replay npx next build, then
//   tsx bench/replay.ts [--port 3232] [--dist .next-replay] [--seeks 40]
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { mulberry32 } from "../lib/domain/random.ts";
import { ensureReplayDb, forgetReplayLayouts, IDS, waitForSynthesizedKeyframes } from "./replay-setup.ts";
import { waitForServer } from "./wait-for-server.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const PORT = Number(arg("port", "3232"));
const DIST = arg("dist", ".next-replay");
const SEEKS = Number(arg("seeks", "40"));
const OUT = path.resolve(import.meta.dirname, "out");
const ROOT = path.resolve(import.meta.dirname, "..");
const base = `http://127.0.0.1:${PORT}`;
const log = (m: string) => console.log(`[replay-bench] ${m}`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function startServer(dbUrl: string) {
  const server = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        NEXT_DIST_DIR: DIST,
        DATABASE_URL: dbUrl,
        RETERM_DEMO: "0",
        RETERM_USER: "bench",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );
  return waitForServer(server, base, 100);
}

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function firstFrame(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => (window.__retermTerminals?.main?.text().length ?? 0) > 0, null, { polling: "raf", timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

async function heapMb(page: Page): Promise<number> {
  return page.evaluate(() => {
    (globalThis as unknown as { gc?: () => void }).gc?.();
    return (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 1024 / 1024;
  });
}

async function replayBytes(page: Page): Promise<number> {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/replay"))
      .reduce((n, e) => n + (e as PerformanceResourceTiming).encodedBodySize, 0),
  );
}

async function timedSeek(page: Page, target: number, fromStart: boolean): Promise<{ ms: number; screen: string }> {
  return page.evaluate(
    async ({ target, fromStart }) => {
      const p = window.__retermPlayers!.main!;
      const t0 = performance.now();
      await (fromStart ? p.baseline.seekFromStart(target) : p.seek(target));
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      return { ms: performance.now() - t0, screen: window.__retermTerminals!.main!.screen() };
    },
    { target, fromStart },
  );
}

async function benchOne(browser: Awaited<ReturnType<typeof chromium.launch>>, id: string, serverPid: number | undefined) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  await context.addInitScript(() => performance.setResourceTimingBufferSize(100_000));
  const page = await context.newPage();
  const url = `${base}/trajectories/${id}`;
  const cold = await firstFrame(page, url);
  const warm: number[] = [];
  for (let i = 0; i < 4; i++) warm.push(await firstFrame(page, url));
  const deep = await firstFrame(page, `${url}?step=1500`);

  await page.goto(url);
  await page.waitForFunction(() => window.__retermPlayers?.main?.state().settled === true, null, { polling: 100, timeout: 60_000 });
  const duration = await page.evaluate(() => window.__retermPlayers!.main!.state().playDurationMs);
  const index = await page.evaluate(
    async (trajectoryId) => (await (await fetch(`/api/v1/trajectories/${trajectoryId}/replay/index`)).json()).index,
    id,
  );
  const rng = mulberry32(99);
  const targets = Array.from({ length: SEEKS }, () => Math.floor(rng() * index.durationMs));
  const bytesBefore = await replayBytes(page);
  const keyframed: number[] = [];
  const screens: string[] = [];
  for (const t of targets) {
    const r = await timedSeek(page, t, false);
    keyframed.push(r.ms);
    screens.push(r.screen);
  }
  const seekBytes = (await replayBytes(page)) - bytesBefore;
  const heapKeyframes = await heapMb(page);

  const preload0 = performance.now();
  const preloadedChars = await page.evaluate(() => window.__retermPlayers!.main!.baseline.preloadAll());
  const preloadMs = performance.now() - preload0;
  const fromStart: number[] = [];
  let mismatches = 0;
  for (const [i, t] of targets.entries()) {
    const r = await timedSeek(page, t, true);
    fromStart.push(r.ms);
    if (r.screen !== screens[i]) mismatches++;
  }
  const heapAll = await heapMb(page);
  await context.close();
  return {
    id,
    source: index.source as string,
    chunks: index.chunks.length as number,
    playDurationMs: duration,
    firstFrame: { firstEverMs: firstEver[id]!, coldMs: cold, warmMedianMs: pct(warm, 50), deepLinkStep1500Ms: deep },
    seek: {
      keyframes: { p50: pct(keyframed, 50), p95: pct(keyframed, 95), max: Math.max(...keyframed), bytesFor40: seekBytes },
      fromStart: { p50: pct(fromStart, 50), p95: pct(fromStart, 95), max: Math.max(...fromStart), preloadMs, preloadedChars },
      screenMismatches: mismatches,
    },
    heapMb: { keyframes: heapKeyframes, wholeRecordingLoaded: heapAll },
    serverRssMb: rssMb(serverPid),
  };
}

const config = await ensureReplayDb(OUT, log);
log(`forgot ${await forgetReplayLayouts(config)} stored replay layout(s)`);
let server = await startServer(config.url);
// Load the page's code once (an unknown id renders not-found without building any replay session), so "cold"
// below means the first view of a trajectory after a restart, not the process's very first request.
const warmUp = () => fetch(`${base}/trajectories/warm-up-not-found`).then((r) => r.text());
await warmUp();
const browser = await chromium.launch({
  executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--enable-precise-memory-info", "--js-flags=--expose-gc"],
});
// First-ever view: no stored layout, so the server passes over all 20 MB to lay the replay out (then stores it).
const firstEver: Record<string, number> = {};
for (const id of [IDS.recorded, IDS.steps]) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  firstEver[id] = await firstFrame(await context.newPage(), `${base}/trajectories/${id}`);
  await context.close();
}
log(`first-ever view (layout computed): recorded ${ms(firstEver[IDS.recorded]!)}, synthesized ${ms(firstEver[IDS.steps]!)}`);
// Let the background work of those views (layout save, keyframes — stored for both sessions) finish, then restart:
// "cold" and the deep link are views after it.
await new Promise((r) => setTimeout(r, 5000));
log(`synthesized keyframes stored before the restart: ${await waitForSynthesizedKeyframes(config, 120_000)}`);
server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
server = await startServer(config.url);
await warmUp();
try {
  const results = [];
  for (const id of [IDS.recorded, IDS.steps]) {
    log(`benchmarking ${id} …`);
    const r = await benchOne(browser, id, server.pid);
    results.push(r);
    log(
      `${r.source}: first frame first-ever ${ms(r.firstFrame.firstEverMs)}, cold ${ms(r.firstFrame.coldMs)}, warm ${ms(r.firstFrame.warmMedianMs)}, deep link ${ms(r.firstFrame.deepLinkStep1500Ms)} | ` +
        `seek p50/p95 keyframes ${ms(r.seek.keyframes.p50)}/${ms(r.seek.keyframes.p95)} vs from start ${ms(r.seek.fromStart.p50)}/${ms(r.seek.fromStart.p95)} ` +
        `(×${(r.seek.fromStart.p50 / r.seek.keyframes.p50).toFixed(0)} at p50) | heap ${r.heapMb.keyframes.toFixed(0)} MB vs ${r.heapMb.wholeRecordingLoaded.toFixed(0)} MB | ` +
        `${(r.seek.keyframes.bytesFor40 / 1024 / 1024).toFixed(1)} MB fetched for ${SEEKS} seeks | screen mismatches ${r.seek.screenMismatches}`,
    );
  }
  fs.writeFileSync(
    path.join(OUT, "replay-results.json"),
    JSON.stringify({ date: new Date().toISOString(), seeks: SEEKS, results }, null, 2),
  );
  log(`results in ${path.join(OUT, "replay-results.json")}`);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
