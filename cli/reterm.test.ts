// `npm run reterm -- --help` and friends: help is printed on stdout with exit code 0, without touching a database;
// an unknown command is still a usage error (exit 2).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wantsHelp } from "./args.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

// Help must need neither a database nor a valid environment: a database file that cannot exist, a PORT that fails
// validation.
const NO_ENV = { DATABASE_URL: "file:/nonexistent-dir/reterm-help.db", PORT: "not-a-port" };
// Each run starts tsx: seconds on a busy machine.
const SLOW = 240_000;

function reterm(args: string[], env: Record<string, string> = NO_ENV) {
  return spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "cli/reterm.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, ...env },
  });
}

describe("reterm help", () => {
  it(
    "--help and -h print the command overview and exit 0",
    () => {
      for (const flag of ["--help", "-h"]) {
        const r = reterm([flag]);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr).toBe("");
        expect(r.stdout).toContain("npm run reterm -- <command> [options]");
        expect(r.stdout).toContain("Commands:");
        for (const command of ["migrate", "seed-demo", "import <paths...>", "dataset create NAME", "analytics recovery"]) {
          expect(r.stdout).toContain(command);
        }
      }
    },
    SLOW,
  );

  it(
    "COMMAND --help prints that command's help alone, exit 0",
    () => {
      const r = reterm(["import", "--help"]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("import <paths...>");
      expect(r.stdout).toContain("--dry-run");
      expect(r.stdout).not.toContain("Commands:");
      expect(r.stdout).not.toContain("seed-demo");
    },
    SLOW,
  );

  it(
    "an unknown command is still a usage error",
    () => {
      const r = reterm(["no-such-command", "--help"], { DATABASE_URL: "file:/nonexistent-dir/reterm-help.db", PORT: "3000" });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('unknown command "no-such-command"');
    },
    SLOW,
  );

  it("reads --help only before a `--` that ends the options", () => {
    expect(wantsHelp(["a", "-h"])).toBe(true);
    expect(wantsHelp(["--help"])).toBe(true);
    expect(wantsHelp(["a", "--", "--help"])).toBe(false);
    expect(wantsHelp(["--helpful", "-hx"])).toBe(false);
  });
});
