// A page on another origin cannot create or import anything (form posts, no-cors fetches, a DNS-rebinding host name),
// a request with a foreign Host header is refused, and a trajectory full of hostile text renders and hydrates without
// console errors.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { hostileTrajectory } from "../tests/hostile/hostile-trajectory.ts";

const EVIL_PAGE = (target: string) => `<!doctype html><html><body><h1>cat pictures</h1>
<form id="f" method="POST" action="${target}/api/v1/trajectories" enctype="text/plain" target="sink">
  <input name='{"id":"xsite-form","task":{"id":"t"},"run":{"name":"r"},"steps":[],"pad":"' value='"}'>
</form>
<iframe name="sink"></iframe>
<script>
  window.attempts = (async () => {
    const one = (id) => JSON.stringify({ id, task: { id: "xsite" }, run: { name: "xsite" }, steps: [] });
    const out = [];
    for (const [url, body, type] of [
      ["${target}/api/v1/trajectories", one("xsite-fetch-plain"), "text/plain"],
      ["${target}/api/v1/trajectories", new Blob([one("xsite-fetch-blob")]), undefined],
      ["${target}/api/imports?name=x.jsonl", one("xsite-import") + "\\n", "text/plain"],
    ]) {
      try {
        await fetch(url, { method: "POST", mode: "no-cors", body, headers: type ? { "content-type": type } : {} });
        out.push("sent");
      } catch (e) { out.push("blocked: " + e); }
    }
    document.getElementById("f").submit();
    return out;
  })();
</script></body></html>`;

let evil: http.Server;
let evilOrigin = "";
test.beforeAll(async ({ baseURL }) => {
  evil = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(EVIL_PAGE(baseURL!));
  });
  await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
  // Another host name and port: a different origin and a different site from the app at 127.0.0.1.
  evilOrigin = `http://localhost:${(evil.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((r) => evil.close(r));
});

async function countMatching(request: import("@playwright/test").APIRequestContext, q: string): Promise<number> {
  const res = await request.get(`/api/v1/trajectories?q=${encodeURIComponent(q)}&perPage=5`);
  expect(res.ok()).toBe(true);
  return (await res.json()).total;
}

test("a page on another origin cannot create or import anything", async ({ page, request }) => {
  const before = (await (await request.get("/api/v1/trajectories?perPage=1")).json()).total;
  const refused: number[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "POST") refused.push(r.status());
  });
  await page.goto(evilOrigin);
  await page.evaluate(() => (window as unknown as { attempts: Promise<unknown> }).attempts);
  await page.waitForTimeout(1500); // the form post lands in the iframe
  expect(refused.length).toBeGreaterThanOrEqual(1);
  for (const status of refused) expect(status).toBe(403);
  const after = (await (await request.get("/api/v1/trajectories?perPage=1")).json()).total;
  expect(after).toBe(before);
  expect(await countMatching(request, "xsite")).toBe(0);
});

test("a DNS-rebinding host name and a foreign Host header are refused", async ({ playwright, baseURL }) => {
  const port = new URL(baseURL!).port;
  // Chromium resolves rebind.example to the app's address, as a rebinding DNS server would.
  const executablePath = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  const browser = await playwright.chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP rebind.example 127.0.0.1"],
  });
  try {
    const page = await browser.newPage();
    const res = await page.goto(`http://rebind.example:${port}/trajectories`);
    expect(res?.status()).toBe(421);
    await expect(page.locator("body")).toContainText(/does not answer to the host name .*rebind\.example/);
    const post = await page.evaluate(
      async () =>
        (await fetch("/api/v1/trajectories", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
    );
    expect(post).toBe(421);
  } finally {
    await browser.close();
  }
  const status = await new Promise<number>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/api/health", headers: { host: "evil.example" } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
      .on("error", reject);
  });
  expect(status).toBe(421);
});

test("a trajectory full of hostile text renders as text and hydrates without errors", async ({ page, request }) => {
  const res = await request.post("/api/v1/trajectories", {
    data: JSON.stringify(hostileTrajectory("e2e-hostile-text")),
    headers: { "content-type": "application/json" },
  });
  expect(res.ok()).toBe(true);
  const id = (await res.json()).results[0].id as string;
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  let alerted = false;
  page.on("dialog", async (d) => {
    alerted = true;
    await d.dismiss();
  });
  for (const path of [`/trajectories/${id}`, "/trajectories", "/tasks", "/runs"]) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.locator("main")).toBeVisible();
  }
  await page.goto(`/trajectories/${id}`, { waitUntil: "networkidle" });
  await expect(page.locator("main")).toContainText("<script>alert(1)</script>");
  expect(await page.locator("main b", { hasText: "bold" }).count()).toBe(0);
  expect(alerted).toBe(false);
  expect(errors).toEqual([]);
});

test("unknown ids and undecodable paths get 4xx statuses, not 200 or 500", async ({ request }) => {
  for (const path of ["/trajectories/does-not-exist", "/tasks/does-not-exist", "/runs/does-not-exist"])
    expect((await request.get(path)).status(), path).toBe(404);
  expect((await request.get("/trajectories/%ff")).status()).toBe(400);
});
