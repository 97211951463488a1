// When the replay's opening screen is VISIBLE, for one or more running servers (e.g. two builds side by side),
// measured without the page's own probe: in fresh browser contexts, interleaved, from navigation start until an
// animation frame (the moment before a paint) finds the poster or the live terminal showing text and not hidden.
// The page's probe (window.__retermTerminals.main.screen(), what the shared harness reads) is reported beside it:
// before session 10 it read the poster while React still held it in a hidden streamed boundary (≥ 300 ms).
//
//   npx tsx bench/replay-first-frame.ts --urls 'main=http://127.0.0.1:6070/trajectories/<id>?t=0.05,new=http://…' [--reps 6]
// Chromium from /usr/bin/chromium; playwright-core comes with @playwright/test.
import { chromium } from "playwright-core";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const urls = arg("urls", "").split(",").filter(Boolean).map((x) => {
  const at = x.indexOf("=");
  return { name: x.slice(0, at), url: x.slice(at + 1) };
});
const REPS = Number(arg("reps", "6"));
if (!urls.length) throw new Error("--urls name=url[,name=url…] is required");

// Plain source (tsx would add helpers to a function's source). `probe`: first time the page's probe returned text;
// `visible`: first animation frame with text on screen in an element that is not hidden.
const INIT = `(() => {
  const st = { probe: null, visible: null }; window.__firstFrame = st;
  const text = () => { try { return (window.__retermTerminals?.main?.screen?.() ?? '').trim(); } catch { return ''; } };
  const mo = new MutationObserver(() => { if (st.probe === null && text()) { st.probe = performance.now(); mo.disconnect(); } });
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const frame = () => {
    if (st.probe === null && text()) st.probe = performance.now();
    const el = document.querySelector('[data-terminal-poster="main"], [data-terminal="main"]');
    const shown = el && el.checkVisibility() && (el.textContent ?? '').trim();
    if (shown) st.visible = performance.now(); else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const got = new Map<string, { probe: number[]; visible: number[] }>(urls.map((u) => [u.name, { probe: [], visible: [] }]));
for (let rep = 0; rep < REPS; rep++) {
  for (const u of urls) {
    // bypassCSP: the page's CSP forbids the string evaluation Playwright's polling uses.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1100, height: 700 } });
    const page = await context.newPage();
    await page.addInitScript(INIT);
    await page.goto(u.url, { waitUntil: "commit" });
    await page.waitForFunction("window.__firstFrame && window.__firstFrame.visible !== null", null, { polling: 50, timeout: 60_000 });
    const r = (await page.evaluate("[window.__firstFrame.probe, window.__firstFrame.visible]")) as [number | null, number];
    got.get(u.name)!.visible.push(r[1]);
    if (r[0] !== null) got.get(u.name)!.probe.push(r[0]);
    await context.close();
  }
}
await browser.close();
console.log(`| page | first frame by the page's probe, ms (median) | first frame visible, ms (median) | visible, each run |`);
console.log(`|---|---:|---:|---|`);
for (const u of urls) {
  const g = got.get(u.name)!;
  console.log(`| ${u.name} | ${g.probe.length ? median(g.probe).toFixed(0) : "—"} | ${median(g.visible).toFixed(0)} | ${g.visible.map((v) => v.toFixed(0)).join(" ")} |`);
}
