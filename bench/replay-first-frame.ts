// When the replay's opening screen is VISIBLE, for one or more running servers (e.g. two builds side by side),
// measured without the page's own probe: in fresh browser contexts, interleaved, from navigation start until an
// animation frame (the moment before a paint) finds the poster or the live terminal showing text and not hidden.
// The page's probe (window.__retermTerminals.main.screen(), what the shared harness reads) is reported beside it:
// before session 10 it read the poster while React still held it in a hidden streamed boundary (≥ 300 ms).
// So are the HTML's first and last byte and the first contentful paint (medians of the same runs): where time went.
//
//   npx tsx bench/replay-first-frame.ts --urls 'main=http://127.0.0.1:6070/trajectories/<id>?t=0.05,new=http://…' [--reps 6]
// Chromium from /usr/bin/chromium; playwright-core comes with @playwright/test.
import { chromium } from "playwright-core";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const urls = arg("urls", "")
  .split(",")
  .filter(Boolean)
  .map((x) => {
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

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
interface Got {
  probe: number[];
  visible: number[];
  ttfb: number[];
  html: number[];
  fcp: number[];
}
const got = new Map<string, Got>(urls.map((u) => [u.name, { probe: [], visible: [], ttfb: [], html: [], fcp: [] }]));
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
    // Where the time went: the first byte of the HTML, its last byte, the first contentful paint.
    const nav = (await page.evaluate(
      `(() => { const n = performance.getEntriesByType('navigation')[0]; const f = performance.getEntriesByName('first-contentful-paint')[0]; return [n.responseStart, n.responseEnd, f ? f.startTime : null]; })()`,
    )) as [number, number, number | null];
    got.get(u.name)!.ttfb.push(nav[0]);
    got.get(u.name)!.html.push(nav[1]);
    if (nav[2] !== null) got.get(u.name)!.fcp.push(nav[2]);
    await context.close();
  }
}
await browser.close();
console.log(
  `| page | HTML first byte / last byte, ms | first contentful paint, ms | first frame by the page's probe, ms | first frame visible, ms | visible, each run |`,
);
console.log(`|---|---:|---:|---:|---:|---|`);
for (const u of urls) {
  const g = got.get(u.name)!;
  const m = (xs: number[]) => (xs.length ? median(xs).toFixed(0) : "—");
  console.log(
    `| ${u.name} | ${m(g.ttfb)} / ${m(g.html)} | ${m(g.fcp)} | ${m(g.probe)} | ${m(g.visible)} | ${g.visible.map((v) => v.toFixed(0)).join(" ")} |`,
  );
}
