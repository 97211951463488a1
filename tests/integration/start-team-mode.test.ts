// `npm start` in team mode with no admin who can sign in refuses to start and says how to create one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm start, team mode", () => {
  it("refuses to start without an admin account and names the command that creates one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-start-"));
    try {
      const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "cli/start.ts"], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 120_000,
        env: {
          ...process.env,
          DATABASE_URL: `file:${path.join(dir, "t.db")}`,
          HOST: "0.0.0.0",
          RETERM_AUTH: "",
          RETERM_DEMO: "0",
          PORT: "3999",
        },
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("Team mode needs an admin who can sign in");
      expect(r.stderr).toContain("npm run reterm -- user add NAME --role admin");
      expect(r.stdout).not.toContain("Dashboard:");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
