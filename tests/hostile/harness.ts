// The hostile-input harness: each case is sent to a real server while /api/health is polled every 100 ms; the case
// passes only if the server stayed responsive throughout (every health check answered within the budget, default 1 s)
// and the case itself got a clear answer. Groups of cases (HTTP inputs, terminal escape sequences, …) are separate
// *.hostile.ts files that share startServer() and runCase().
import { expect } from "vitest";
import type { RunningServer } from "./server.ts";

export interface CaseOutcome {
  status: number;
  /** The response body as text (JSON errors are parsed into `json`). */
  text: string;
  json: unknown;
  /** Slowest health check while the case ran, in ms. */
  worstHealthMs: number;
  healthChecks: number;
  /** Server memory growth during the case (bytes; 0 where /proc is unavailable). */
  rssGrowth: number;
  ms: number;
}

export const HEALTH_BUDGET_MS = 1000;

async function timedHealth(base: string): Promise<number> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return res.ok ? performance.now() - t0 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Run one hostile request while watching the server's health; `send` gets the server's base URL. */
export async function runCase(server: RunningServer, send: (base: string) => Promise<Response>): Promise<CaseOutcome> {
  let running = true;
  let worst = 0;
  let checks = 0;
  const rss0 = server.rss();
  let rssMax = rss0;
  const watcher = (async () => {
    while (running) {
      const ms = await timedHealth(server.base);
      worst = Math.max(worst, ms);
      checks++;
      rssMax = Math.max(rssMax, server.rss());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = performance.now();
  let res: Response;
  let text: string;
  try {
    res = await send(server.base);
    text = await res.text();
  } finally {
    running = false;
    await watcher;
  }
  // One last check after the case: it must not have left the server busy.
  worst = Math.max(worst, await timedHealth(server.base));
  checks++;
  let json: unknown = null;
  try {
    json = JSON.parse(text.trim().split("\n").at(-1) ?? "");
  } catch {
    json = null;
  }
  return {
    status: res.status,
    text,
    json,
    worstHealthMs: worst,
    healthChecks: checks,
    rssGrowth: rssMax - rss0,
    ms: performance.now() - t0,
  };
}

/** The server answered health checks within budget throughout the case. */
export function expectResponsive(o: CaseOutcome, budgetMs = HEALTH_BUDGET_MS): void {
  expect(o.worstHealthMs, `slowest health check during the case: ${Math.round(o.worstHealthMs)} ms`).toBeLessThan(budgetMs);
}

/** A JSON error answer `{error:{code,message}}` with this status and a message matching `message`. */
export function expectClearError(o: CaseOutcome, status: number, message: RegExp): void {
  expect(o.status, o.text.slice(0, 500)).toBe(status);
  const err = (o.json as { error?: { code?: string; message?: string } })?.error;
  expect(err?.message?.slice(0, 600), o.text.slice(0, 300)).toMatch(message);
  expect(err?.message?.length ?? 0, "error messages stay short whatever the input").toBeLessThan(1000);
}
