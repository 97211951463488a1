// The annotator's path in Chromium against a production build, on SQLite and PostgreSQL: "Start labelling" → first
// queue item interactive, then "1" + Enter → next item interactive (the panel of the next reservation mounted and
// taking keys), one annotator, 1440×900. Data: generated demo trajectories; the queue holds the failed ones with
// fork points. The build must exist (`npx next build`). Baseline in the same run: a full page load of an item.
// Prints the load average.
// Usage: nice -n 5 tsx bench/annotation-browser.ts [--items 30] [--trajectories 200] [--skip-pg] [--skip-sqlite]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { chromium } from "@playwright/test";
import type { DatabaseConfig } from "../lib/env.ts";
import { createDb } from "../lib/db/client.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { createQueue } from "../lib/services/annotation/manage-queues.ts";
import { waitForServer } from "./wait-for-server.ts";

const args = process.argv.slice(2);
const arg = (name: string, d: number) => Number(args[args.indexOf(name) + 1] || 0) || d;
const ITEMS = arg("--items", 30);
const TRAJECTORIES = arg("--trajectories", 200);
const PORT = Number(process.env.BENCH_PORT ?? 3390);
const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = process.env.BENCH_OUT ?? path.join(os.tmpdir(), "reterm-bench");
const TAG = (process.env.BENCH_TAG ?? "").replace(/[^a-z0-9_]/gi, "");
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const base = `http://127.0.0.1:${PORT}`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function freshConfig(provider: DatabaseConfig["provider"]): Promise<DatabaseConfig> {
  const name = `reterm_${TAG ? `${TAG}_` : ""}bench_annotator`;
  if (provider === "sqlite") {
    fs.mkdirSync(OUT, { recursive: true });
    const file = path.join(OUT, `${name}.db`);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    return { provider, file, url: `file:${file}` };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { provider, url: url.toString() };
}

async function startServer(dbUrl: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.join(ROOT, "cli/next-server.mjs"), "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: dbUrl, RETERM_DEMO: "0", RETERM_USER: "bench", NEXT_TELEMETRY_DISABLED: "1" },
  });
  return waitForServer(server, base, 300);
}

async function run(provider: DatabaseConfig["provider"]): Promise<void> {
  const config = await freshConfig(provider);
  await setupDatabase(config);
  const db = createDb(config);
  const actor = await ensureUser(db, "bench", "admin");
  await seedDemo({ db, actor }, { count: TRAJECTORIES, seed: 7 });
  const queue = await createQueue(
    { db, actor },
    { name: "bench-forks", filter: "outcome=failed&forks=yes", schemas: ["error-category"], assignees: [] },
  );
  await db.$disconnect();
  const server = await startServer(config.url);
  const browser = await chromium.launch({
    executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    // Warm the server up (first compile of each route) on a throwaway page, then measure in a fresh context.
    const warm = await (await browser.newContext()).newPage();
    await warm.goto(`${base}/annotation/queues/${queue.id}`);
    // The item route too (a slot that is nobody's: the server loads the page's code, then sends the browser back).
    await warm.goto(`${base}/annotation/queues/${queue.id}/item?slot=warm-up`);
    await warm.context().close();
    // The first item, timed from the click: once clicked straight away, once with the pointer resting on the button
    // for 300 ms first (a person's hand reaches the button before it clicks; the reservation is asked for on that
    // intent). Each in a fresh browser context, so no script or page is cached; the second gets the same reservation.
    const firstItem = async (restMs: number) => {
      const p = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
      await p.goto(`${base}/annotation/queues/${queue.id}`);
      const button = p.getByRole("button", { name: "Start labelling" });
      await button.waitFor();
      if (restMs) {
        await button.hover();
        await p.waitForTimeout(restMs);
      }
      const t0 = performance.now();
      await button.click();
      await p.waitForURL(/\/item\?slot=/, { timeout: 60_000 });
      const slot = new URL(p.url()).searchParams.get("slot")!;
      await p
        .locator(`[data-testid="queue-item"][data-slot="${slot}"] [aria-label="Labelling"][data-hydrated="true"]`)
        .waitFor({ timeout: 60_000 });
      return { page: p, slot, ms: performance.now() - t0 };
    };
    const straight = await firstItem(0);
    await straight.page.context().close();
    const rested = await firstItem(300);
    const page = rested.page;
    const panelOf = (slot: string) =>
      page.locator(`[data-testid="queue-item"][data-slot="${slot}"] [aria-label="Labelling"][data-hydrated="true"]`);
    let slot = rested.slot;
    const next: number[] = [];
    for (let i = 0; i < Math.min(ITEMS, queue.itemCount - 1); i++) {
      // Give the page the moment an annotator takes to read (the next item is reserved and fetched meanwhile).
      await page.waitForTimeout(700);
      await page.keyboard.press("1");
      const s = performance.now();
      await page.keyboard.press("Enter");
      await page.waitForURL((u) => u.searchParams.get("slot") !== slot, { timeout: 60_000 });
      slot = new URL(page.url()).searchParams.get("slot")!;
      await panelOf(slot).waitFor({ timeout: 60_000 });
      next.push(performance.now() - s);
    }
    // Baseline in the same run: the same item opened by a full page load (a reload keeps the reservation), which is
    // what moving on cost before items followed each other without one.
    const full: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      await page.reload();
      await panelOf(slot).waitFor({ timeout: 60_000 });
      full.push(performance.now() - s);
    }
    const b = pct(full, 50);
    console.log(
      `[${provider}] queue of ${queue.itemCount} items; first item ${straight.ms.toFixed(0)} ms clicked straight away, ${rested.ms.toFixed(0)} ms after the pointer rested 300 ms (goal ≤ 1000); Enter → next item interactive over ${next.length}: p50 ${pct(next, 50).toFixed(0)} ms (goal ≤ 200), p95 ${pct(next, 95).toFixed(0)} ms (goal ≤ 400); baseline full page load of an item p50 ${b.toFixed(0)} ms → next item p50 ${(pct(next, 50) / b).toFixed(2)}× of it; load average ${load()}`,
    );
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

console.log(`load average ${load()}`);
if (!args.includes("--skip-sqlite")) await run("sqlite");
if (!args.includes("--skip-pg")) await run("postgresql");
console.log(`load average ${load()}`);
