// `npm test`: type-check, lint, formatting, unit + integration tests (SQLite and PostgreSQL), production build, e2e in Chromium.
// Runs every stage even after a failure so one run shows everything that is wrong; exits non-zero if any failed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readFailures, type Failure } from "./test-failures";

// Each test stage also writes a JSON report here, so the summary can name the tests that failed.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-test-reports-"));
const vitestReport = (name: string): string[] => ["--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reports, name)}`];

type Stage = { name: string; cmd: string[]; report?: { file: string; kind: "vitest" | "playwright" }; env?: Record<string, string> };
const stages: Stage[] = [
  { name: "typecheck", cmd: ["npx", "tsc", "--noEmit"] },
  { name: "lint", cmd: ["npx", "eslint", "--max-warnings=0", "."] },
  { name: "format (prettier --check)", cmd: ["npx", "prettier", "--check", "--log-level=warn", "."] },
  {
    name: "unit + integration (vitest)",
    cmd: ["npx", "vitest", "run", ...vitestReport("unit.json")],
    report: { file: path.join(reports, "unit.json"), kind: "vitest" },
  },
  { name: "build", cmd: ["npx", "next", "build"] },
  {
    name: "hostile input (real server)",
    cmd: ["npx", "vitest", "run", "--config", "vitest.hostile.config.ts", ...vitestReport("hostile.json")],
    report: { file: path.join(reports, "hostile.json"), kind: "vitest" },
  },
  {
    name: "e2e (playwright)",
    cmd: ["npx", "playwright", "test", "--reporter=list,json"],
    report: { file: path.join(reports, "e2e.json"), kind: "playwright" },
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(reports, "e2e.json") },
  },
];

const only = process.argv.slice(2);
const results: { name: string; ok: boolean; secs: number; failures: Failure[] }[] = [];
for (const s of stages) {
  if (only.length && !only.some((o) => s.name.startsWith(o))) continue;
  if ((s.name.startsWith("e2e") || s.name.startsWith("hostile")) && results.some((r) => r.name === "build" && !r.ok)) {
    results.push({ name: s.name, ok: false, secs: 0, failures: [] });
    console.error(`\n=== ${s.name} skipped: the build failed ===`);
    continue;
  }
  console.log(`\n=== ${s.name}: ${s.cmd.join(" ")} ===`);
  const t0 = Date.now();
  const r = spawnSync(s.cmd[0]!, s.cmd.slice(1), { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...s.env } });
  const ok = r.status === 0;
  const failures = !ok && s.report ? readFailures(s.report.file, s.report.kind, process.cwd()) : [];
  results.push({ name: s.name, ok, secs: (Date.now() - t0) / 1000, failures });
}

console.log("\n=== summary ===");
for (const r of results) {
  console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(30)} ${r.secs.toFixed(1)}s`);
  for (const f of r.failures.slice(0, 20)) console.log(`        ✗ ${f.where}\n          ${f.why}`);
  if (r.failures.length > 20) console.log(`        … and ${r.failures.length - 20} more (see the stage's output above)`);
}
fs.rmSync(reports, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok);
if (failed.length) {
  console.error(`\n${failed.length} stage(s) failed: ${failed.map((f) => f.name).join(", ")}`);
  process.exit(1);
}
