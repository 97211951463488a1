import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// E2E runs against a production build (`npm run build` first; `npm test` does it) served on an unusual port,
// with a fresh SQLite database seeded with known generated data (e2e/serve.ts).
const PORT = Number(process.env.E2E_PORT ?? 3210);
// A second server in team mode (sign-in required, one account per role) for e2e/accounts.spec.ts.
export const TEAM_PORT = Number(process.env.E2E_TEAM_PORT ?? PORT + 500);
export const TEAM_USERS_FILE = `${process.env.TMPDIR ?? "/tmp"}/reterm-e2e-users-${TEAM_PORT}.json`;
// A third, local-mode server for specs that add trajectories and then count across the corpus (failure modes): what
// they add never changes the totals other specs check on the main server, whatever order the specs run in.
export const SCRATCH_PORT = Number(process.env.E2E_SCRATCH_PORT ?? PORT + 600);
const chromium = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: chromium,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: "tsx e2e/serve.ts",
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(PORT), NEXT_TELEMETRY_DISABLED: "1" },
    },
    {
      command: "tsx e2e/serve.ts",
      url: `http://127.0.0.1:${TEAM_PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(TEAM_PORT), E2E_AUTH: "team", E2E_USERS_FILE: TEAM_USERS_FILE, NEXT_TELEMETRY_DISABLED: "1" },
    },
    {
      command: "tsx e2e/serve.ts",
      url: `http://127.0.0.1:${SCRATCH_PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(SCRATCH_PORT), E2E_SCRATCH: "1", NEXT_TELEMETRY_DISABLED: "1" },
    },
  ],
});
