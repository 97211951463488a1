// `npm test`: type-check, lint, formatting, unit + integration tests (SQLite and PostgreSQL), production build, e2e in Chromium.
// Runs every stage even after a failure so one run shows everything that is wrong; exits non-zero if any failed.
import { spawnSync } from "node:child_process";

const stages: { name: string; cmd: string[] }[] = [
  { name: "typecheck", cmd: ["npx", "tsc", "--noEmit"] },
  { name: "lint", cmd: ["npx", "eslint", "--max-warnings=0", "."] },
  { name: "format (prettier --check)", cmd: ["npx", "prettier", "--check", "--log-level=warn", "."] },
  { name: "unit + integration (vitest)", cmd: ["npx", "vitest", "run"] },
  { name: "build", cmd: ["npx", "next", "build"] },
  { name: "hostile input (real server)", cmd: ["npx", "vitest", "run", "--config", "vitest.hostile.config.ts"] },
  { name: "e2e (playwright)", cmd: ["npx", "playwright", "test"] },
];

const only = process.argv.slice(2);
const results: { name: string; ok: boolean; secs: number }[] = [];
for (const s of stages) {
  if (only.length && !only.some((o) => s.name.startsWith(o))) continue;
  if ((s.name.startsWith("e2e") || s.name.startsWith("hostile")) && results.some((r) => r.name === "build" && !r.ok)) {
    results.push({ name: s.name, ok: false, secs: 0 });
    console.error(`\n=== ${s.name} skipped: the build failed ===`);
    continue;
  }
  console.log(`\n=== ${s.name}: ${s.cmd.join(" ")} ===`);
  const t0 = Date.now();
  const r = spawnSync(s.cmd[0]!, s.cmd.slice(1), { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  results.push({ name: s.name, ok: r.status === 0, secs: (Date.now() - t0) / 1000 });
}

console.log("\n=== summary ===");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(30)} ${r.secs.toFixed(1)}s`);
const failed = results.filter((r) => !r.ok);
if (failed.length) {
  console.error(`\n${failed.length} stage(s) failed: ${failed.map((f) => f.name).join(", ")}`);
  process.exit(1);
}
