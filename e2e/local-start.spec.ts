// `npm start` (cli/start.ts) in local mode: listens on loopback only and needs no sign-in. Uses the production build
// the e2e run already needs; its own port and a throwaway database.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 600;
const ROOT = path.resolve(import.meta.dirname, "..");
let server: ChildProcess | undefined;
let dir = "";

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-start-e2e-"));
  server = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "cli/start.ts"], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      DATABASE_URL: `file:${path.join(dir, "s.db")}`,
      PORT: String(PORT),
      RETERM_DEMO: "1",
      RETERM_DEMO_TRAJECTORIES: "5",
      HOST: "",
      RETERM_AUTH: "",
    },
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("npm start did not answer on 127.0.0.1 within 2 minutes");
});
test.afterAll(() => {
  server?.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Local addresses of listening TCP sockets on a port, from the kernel's own table. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((f) =>
    fs.existsSync(f)
      ? fs
          .readFileSync(f, "utf8")
          .split("\n")
          .slice(1)
          .map((l) => l.trim().split(/\s+/))
          .filter((c) => c[1]?.endsWith(`:${hexPort}`) && c[3] === "0A")
          .map((c) => c[1]!.split(":")[0]!)
      : [],
  );
}

test("npm start binds 127.0.0.1 only and serves the dashboard without sign-in", async ({ page }) => {
  const addrs = listeners(PORT);
  expect(addrs.length).toBeGreaterThan(0);
  // 0100007F is 127.0.0.1 in /proc/net/tcp's little-endian hex; anything else (00000000 = all interfaces) is exposed.
  expect(addrs.every((a) => a === "0100007F")).toBe(true);
  await page.goto(`http://127.0.0.1:${PORT}/trajectories`);
  await expect(page).toHaveURL(/\/trajectories/);
  await expect(page.getByTestId("current-user")).toContainText("local-admin · admin");
  await expect(page.getByText("Local mode: no sign-in on this machine.")).toBeVisible();
});
