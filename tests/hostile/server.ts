// A real ReTerm server for the hostile-input suite: the production build (`npx next build` first) served by
// cli/next-server.mjs on a free port, with a fresh SQLite database. Same process shape as `npm start`.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setupDatabase } from "../../lib/services/system/setup-database.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  base: string;
  port: number;
  /** Resident memory of the server process, in bytes (from /proc; 0 where unavailable). */
  rss(): number;
  stop(): Promise<void>;
}

export function buildMissing(): string | null {
  return fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")) ? null : "no production build (.next/BUILD_ID): run `npx next build` first";
}

/** A port nothing listens on now (the deployment spec's cluster uses it too). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-hostile-"));
  const file = path.join(dir, "hostile.db");
  await setupDatabase({ provider: "sqlite", file, url: `file:${file}` });
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "cli/next-server.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: `file:${file}`, RETERM_DEMO: "0", NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  let log = "";
  child.stdout!.on("data", (d) => (log = (log + d).slice(-20_000)));
  child.stderr!.on("data", (d) => (log = (log + d).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer /api/health within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    port,
    rss: () => rssOf(child.pid),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
