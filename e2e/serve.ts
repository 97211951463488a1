// Playwright's web server: a fresh SQLite database with known generated data, then `next start` on E2E_PORT.
// Refuses to touch anything but its own temporary database. E2E_AUTH=team starts it in team mode with one account
// per role, whose generated passwords go to E2E_USERS_FILE for the specs (never into the project).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { E2E_SEED } from "./helpers/seed.ts";
import { ROLES } from "../lib/domain/authz.ts";
import { seedAnnotationE2E } from "./helpers/annotation-seed.ts";

const port = Number(process.env.E2E_PORT ?? 3210);
const team = process.env.E2E_AUTH === "team";
// The scratch server (playwright.config.ts SCRATCH_PORT): local mode, a small seed, for specs that add trajectories.
const scratch = process.env.E2E_SCRATCH === "1";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-e2e-"));
const usersFile = process.env.E2E_USERS_FILE ?? path.join(os.tmpdir(), `reterm-e2e-users-${port}.json`);
const file = path.join(dir, "e2e.db");
const config = { provider: "sqlite" as const, file, url: `file:${file}` };
const authEnv = team ? { RETERM_AUTH: "on", RETERM_AUTH_SECRET: `e2e-${Math.random().toString(36).slice(2)}-${"x".repeat(32)}` } : {};
Object.assign(process.env, { DATABASE_URL: config.url, ...authEnv });

await setupDatabase(config);
const db = createDb(config);
const actor = await ensureUser(db, "local-admin", "admin");
await seedDemo({ db, actor }, { count: team || scratch ? 12 : E2E_SEED.count, seed: E2E_SEED.seed });
if (team) {
  const { createUser } = await import("../lib/services/accounts/manage-users.ts");
  const users: Record<string, { name: string; password: string }> = {};
  for (const role of ROLES) users[role] = await createUser({ db, actor }, { name: `e2e-${role}`, role });
  fs.writeFileSync(usersFile, JSON.stringify(users), { mode: 0o600 });
}
// The annotation specs run against the local-mode server (its larger seed has the failed trajectories they label).
if (!team && !scratch) await seedAnnotationE2E(db, actor);
await db.$disconnect();

const root = path.resolve(import.meta.dirname, "..");
const server = spawn(process.execPath, [path.join(root, "cli/next-server.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: `file:${file}`, RETERM_DEMO: "0", RETERM_USER: "local-admin", ...authEnv },
});
const cleanUp = () => {
  fs.rmSync(dir, { recursive: true, force: true });
  if (team) fs.rmSync(usersFile, { force: true });
};
const stop = () => {
  server.kill("SIGTERM");
  cleanUp();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
