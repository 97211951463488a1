// The benchmarks that drive a real server start cli/next-server.mjs themselves; this waits until it answers its
// health check (polled every 200 ms), or stops it and fails.
import type { ChildProcess } from "node:child_process";

export async function waitForServer<T extends ChildProcess>(server: T, base: string, tries: number): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill("SIGTERM");
  throw new Error(`server did not start on ${base}`);
}
