// Team mode needs a session secret that survives a restart, however the server is started: instrumentation.ts (run
// by every Next.js server at start) refuses without one, in one line naming RETERM_AUTH_SECRET; `npm start` keeps a
// generated one in data/auth-secret, which any later start reads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-secret-"));
const saved = { cwd: process.cwd(), env: { ...process.env } };

describe("team mode's session secret", () => {
  beforeAll(() => {
    // RETERM_JOBS=off: register() would otherwise start running jobs on the default database, which this test never sets up.
    Object.assign(process.env, { RETERM_AUTH: "on", NEXT_RUNTIME: "nodejs", RETERM_JOBS: "off" });
    delete process.env.RETERM_AUTH_SECRET;
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(saved.cwd);
    process.env = saved.env;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a server started without RETERM_AUTH_SECRET or data/auth-secret stops with one line naming the variable", async () => {
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { register } = await import("../../instrumentation.ts");
    await expect(register()).rejects.toThrow("exit 1");
    expect(error).toHaveBeenCalledTimes(1);
    const line = String(error.mock.calls[0]?.[0]);
    expect(line).toContain("RETERM_AUTH_SECRET");
    expect(line).not.toContain("\n");
    exit.mockRestore();
    error.mockRestore();
  });

  it("the secret `npm start` generated and kept in data/auth-secret is used by any later start", async () => {
    const { loadAuthSecret } = await import("../../lib/services/accounts/team-mode.ts");
    const { persistentAuthSecret } = await import("../../lib/env.ts");
    const generated = loadAuthSecret(undefined, path.join(dir, "data"));
    expect(generated).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(path.join(dir, "data", "auth-secret")).mode & 0o777).toBe(0o600);
    expect(loadAuthSecret(undefined, path.join(dir, "data"))).toBe(generated);
    expect(persistentAuthSecret({ RETERM_AUTH_SECRET: undefined })).toBe(generated);
    const exit = vi.spyOn(process, "exit");
    const { register } = await import("../../instrumentation.ts");
    await register();
    expect(exit).not.toHaveBeenCalled();
    exit.mockRestore();
  });

  it("RETERM_AUTH_SECRET wins over the file", async () => {
    const { persistentAuthSecret } = await import("../../lib/env.ts");
    expect(persistentAuthSecret({ RETERM_AUTH_SECRET: "s".repeat(40) })).toBe("s".repeat(40));
  });
});
