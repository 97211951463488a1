// The summary of `npm test` names failed tests from the reports the real tools write: a tiny suite with one passing
// and one failing test runs under the project's own vitest and Playwright, and the parser must find exactly the
// failing one, with its message.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFailures } from "../../scripts/test-failures";

const root = path.resolve(import.meta.dirname, "../..");
let dir: string;
beforeAll(() => {
  // Inside the project, so the suites' imports of vitest and @playwright/test resolve to the project's own.
  fs.mkdirSync(path.join(root, "node_modules/.cache"), { recursive: true });
  dir = fs.mkdtempSync(path.join(root, "node_modules/.cache/reterm-failures-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(cmd: string, args: string[], env: Record<string, string> = {}): void {
  const r = spawnSync(path.join(root, "node_modules/.bin", cmd), args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } });
  // The suite has a failing test, so the tool must exit non-zero; anything else means it did not run.
  expect(r.status, r.stderr + r.stdout).toBe(1);
}

describe("failed tests are read from the tools' JSON reports", () => {
  it("vitest: a failing test and a file that fails to load", () => {
    fs.writeFileSync(path.join(dir, "vitest.config.mjs"), "export default { test: { include: ['*.test.mjs'] } };\n");
    fs.writeFileSync(
      path.join(dir, "a.test.mjs"),
      "import { describe, expect, it } from 'vitest';\n" +
        "describe('group', () => {\n  it('passes', () => expect(1).toBe(1));\n  it('fails', () => expect(2).toBe(3));\n});\n",
    );
    fs.writeFileSync(path.join(dir, "b.test.mjs"), "throw new Error('broken at load');\n");
    const out = path.join(dir, "vitest.json");
    run("vitest", ["run", "--root", dir, "--reporter=json", `--outputFile.json=${out}`]);
    const failures = readFailures(out, "vitest", dir);
    expect(failures.map((f) => f.where).sort()).toEqual(["a.test.mjs › group fails", "b.test.mjs"]);
    expect(failures.find((f) => f.where.startsWith("a."))!.why).toMatch(/expected 2 to be 3/);
    expect(failures.find((f) => f.where === "b.test.mjs")!.why).toMatch(/broken at load/);
  });

  it("playwright: a failing test inside a describe", () => {
    fs.writeFileSync(path.join(dir, "playwright.config.mjs"), "export default { testDir: '.', testMatch: '*.spec.mjs', retries: 0 };\n");
    fs.writeFileSync(
      path.join(dir, "c.spec.mjs"),
      "import { test, expect } from '@playwright/test';\n" +
        "test.describe('box', () => {\n  test('passes', () => expect(1).toBe(1));\n  test('fails', () => expect('a').toBe('b'));\n});\n",
    );
    const out = path.join(dir, "pw.json");
    run("playwright", ["test", "--config", path.join(dir, "playwright.config.mjs"), "--reporter=json"], {
      PLAYWRIGHT_JSON_OUTPUT_FILE: out,
    });
    const failures = readFailures(out, "playwright", dir);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.where).toBe("c.spec.mjs:4 › box › fails");
    expect(failures[0]!.why).toMatch(/toBe/);
  });

  it("a report that was never written is a failure that says so", () => {
    expect(readFailures(path.join(dir, "missing.json"), "vitest", dir)).toEqual([
      { where: path.join(dir, "missing.json"), why: expect.stringMatching(/no report/) },
    ]);
  });
});
