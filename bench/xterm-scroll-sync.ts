// What a seek's bulk write costs in the browser's xterm with and without holding its per-line scrollbar sync
// (components/terminal/terminal-view.tsx, viewportSyncHold), in the same Chromium page, alternating: ~2,000 lines of
// coloured output under a scroll region with a status line on the bottom row (what the anchor recording draws),
// written after a reset, timed until the next animation frame.
//   nice -n 5 npx tsx bench/xterm-scroll-sync.ts [--runs=8]
import path from "node:path";
import { chromium } from "playwright-core";

const runs = Number(/--runs=(\d+)/.exec(process.argv.join(" "))?.[1] ?? 8);
const XTERM = path.resolve(import.meta.dirname, "../node_modules/@xterm/xterm");

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium" });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.setContent(`<html><body><div id="t" style="width:1100px"></div></body></html>`);
  await page.addStyleTag({ path: path.join(XTERM, "css/xterm.css") });
  await page.addScriptTag({ path: path.join(XTERM, "lib/xterm.js") });
  // Source text, not a function: tsx would add helpers (__name) that do not exist in the page.
  const times = (await page.evaluate(`(async (n) => {
    const term = new window.Terminal({ cols: 120, rows: 36, scrollback: 5000 });
    term.open(document.getElementById("t"));
    let data = "\\u001b[1;35r";
    for (let i = 0; i < 2000; i++) data += "\\u001b[32mline " + i + "\\u001b[0m " + "x".repeat(50) + "\\r\\n" + (i % 20 === 0 ? "\\u001b7\\u001b[36;1Hstatus " + i + "\\u001b8" : "");
    const write = (d) => new Promise((r) => term.write(d, r));
    const once = async (held) => {
      term.reset();
      await write("");
      const vp = term._core._viewport;
      const t0 = performance.now();
      if (held) vp._isSyncing = true;
      await write(data);
      if (held) { vp._isSyncing = false; vp.queueSync(); }
      await new Promise(requestAnimationFrame);
      return performance.now() - t0;
    };
    const out = { plain: [], held: [] };
    await once(false);
    for (let i = 0; i < n; i++) { out.plain.push(await once(false)); out.held.push(await once(true)); }
    return out;
  })(${runs})`)) as { plain: number[]; held: number[] };
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const plain = median(times.plain);
  const held = median(times.held);
  console.log(`| runs | sync per line (xterm default), median ms | sync held until parsed, median ms | ratio |`);
  console.log(
    `| ${runs} | ${plain.toFixed(0)} (${times.plain.map((t) => t.toFixed(0)).join(", ")}) | ${held.toFixed(0)} (${times.held.map((t) => t.toFixed(0)).join(", ")}) | ${(held / plain).toFixed(2)}× |`,
  );
} finally {
  await browser.close();
}
