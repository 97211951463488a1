// Our trajectory page after it has settled (the shared harness takes the heap at the first frame, which on our page
// is the server-rendered poster before any bundle has run): when the live terminal is up, the JS heap after a GC,
// then the four harness seeks (10 / 50 / 90 / back to 5 %) timed from seek() until the screen shows the expected
// `step CMD-…` text, then the heap again. Uses the server and database bench/replay-anchor.ts left running, or any
// running app with the harness's generated recording imported.
//
//   nice -n 5 npx tsx bench/replay-settle.ts --tmp /tmp/s6-13-anchor --url 'http://127.0.0.1:6151/trajectories/<id>?t=0.02' \
//     --cast large [--reps 3]
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const TMP = path.resolve(arg("tmp", "/tmp/reterm-anchor"));
const URL_ = arg("url", "");
const CAST = arg("cast", "large");
const REPS = Number(arg("reps", "3"));
if (!URL_) throw new Error("--url is required");

const require = createRequire(path.join(TMP, "node_modules", "x.js"));
const { chromium } = require("playwright-core") as typeof import("playwright-core");
const idx = JSON.parse(fs.readFileSync(path.join(TMP, "casts", `${CAST}.index.json`), "utf8")) as {
  duration: number;
  commands: [number, string][];
};
const expectAt = (t: number) => {
  let id = idx.commands[0]![1];
  for (const [time, cmd] of idx.commands) if (time <= t) id = cmd;
  return `step ${id} `;
};
const seeks = [
  ["10 %", 0.1],
  ["50 %", 0.5],
  ["90 %", 0.9],
  ["back to 5 %", 0.05],
] as const;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const rows: Record<string, number[]> = {};
const put = (k: string, v: number) => (rows[k] ??= []).push(v);
try {
  for (let rep = 0; rep < REPS; rep++) {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __settle: Record<string, number> };
      w.__settle = {};
      const mo = new MutationObserver(() => {
        if (!w.__settle.poster && document.querySelector("[data-terminal-poster]")) w.__settle.poster = performance.now();
        if (!w.__settle.xterm && document.querySelector(".xterm-screen")) w.__settle.xterm = performance.now();
        if (!w.__settle.labelling && document.querySelector('[aria-label="Labelling"][data-hydrated="true"]'))
          w.__settle.labelling = performance.now();
      });
      mo.observe(document, { subtree: true, childList: true, attributes: true });
      // Replay range requests (time to the parsed body), to split a seek into its request and its terminal work.
      const f = window.fetch.bind(window);
      const log: { url: string; ms: number; at: number }[] = [];
      (window as unknown as { __fetches: typeof log }).__fetches = log;
      window.fetch = async (input, init) => {
        const t0 = performance.now();
        const res = await f(input, init);
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes("/replay?")) return res;
        const text = await res.text();
        log.push({ url: url.replace(/^.*\/replay\?/, ""), ms: performance.now() - t0, at: t0 });
        return new Response(text, { status: res.status, headers: res.headers });
      };
    });
    const cdp = await ctx.newCDPSession(page);
    await page.goto(URL_);
    await page.waitForFunction(
      () => {
        const p = (window as unknown as { __retermPlayers?: Record<string, { queued?: unknown; state(): { settled: boolean } }> })
          .__retermPlayers?.main;
        return !!p && !p.queued && p.state().settled && !!document.querySelector(".xterm-screen");
      },
      null,
      { timeout: 120_000, polling: 100 },
    );
    await page.waitForTimeout(1500);
    await page.evaluate(() => (window as unknown as { __fetches: unknown[] }).__fetches.splice(0));
    const marks = await page.evaluate(() => (window as unknown as { __settle: Record<string, number> }).__settle);
    for (const [k, v] of Object.entries(marks)) put(`${k} in the DOM, ms`, v);
    const html = await page.evaluate(() => document.documentElement.outerHTML.length);
    put("DOM (outerHTML), KB", html / 1024);
    await cdp.send("HeapProfiler.collectGarbage");
    put("heap after settle (GC), MB", ((await cdp.send("Runtime.getHeapUsage")) as { usedSize: number }).usedSize / 1e6);
    for (const [label, f] of seeks) {
      const t = idx.duration * f;
      const ms = await page.evaluate(
        async ({ ms, expect }) => {
          const w = window as unknown as {
            __retermPlayers: Record<string, { seek(ms: number): Promise<void> }>;
            __retermTerminals: Record<string, { screen(): string }>;
          };
          const t0 = performance.now();
          await w.__retermPlayers.main!.seek(ms);
          while (!w.__retermTerminals.main!.screen().includes(expect)) {
            if (performance.now() - t0 > 30_000) return -1;
            await new Promise((r) => requestAnimationFrame(r));
          }
          return performance.now() - t0;
        },
        { ms: t * 1000, expect: expectAt(t) },
      );
      put(`seek ${label}, ms`, ms);
      const req = await page.evaluate(() =>
        (window as unknown as { __fetches: { ms: number }[] }).__fetches.splice(0).reduce((n, x) => n + x.ms, 0),
      );
      put(`  ${label}: its range requests, ms`, req);
    }
    await page.waitForTimeout(500);
    await cdp.send("HeapProfiler.collectGarbage");
    put("heap after the seeks (GC), MB", ((await cdp.send("Runtime.getHeapUsage")) as { usedSize: number }).usedSize / 1e6);
    await ctx.close();
  }
} finally {
  await browser.close();
}
console.log(`| metric | median | min–max |\n|---|---|---|`);
for (const [k, v] of Object.entries(rows))
  console.log(`| ${k} | ${median(v).toFixed(1)} | ${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)} |`);
const allSeeks = Object.entries(rows)
  .filter(([k]) => k.startsWith("seek "))
  .flatMap(([, v]) => v);
console.log(`| seek median (all), ms | ${median(allSeeks).toFixed(1)} | |`);
