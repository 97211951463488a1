// Playwright's web server: a fresh SQLite database with known generated data, then `next start` on E2E_PORT.
// Refuses to touch anything but its own temporary database.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupDatabase } from "../lib/services/setup-database.ts";
import { createDb } from "../lib/db/client.ts";
import { ensureUser } from "../lib/db/repositories/users.ts";
import { seedDemo } from "../lib/services/seed-demo.ts";
import { E2E_SEED } from "./helpers/seed.ts";
import { seedAnnotationE2E } from "./helpers/annotation-seed.ts";

const port = Number(process.env.E2E_PORT ?? 3210);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-e2e-"));
const file = path.join(dir, "e2e.db");
const config = { provider: "sqlite" as const, file, url: `file:${file}` };

await setupDatabase(config);
const db = createDb(config);
const actor = await ensureUser(db, "local-admin", "admin");
await seedDemo({ db, actor }, { count: E2E_SEED.count, seed: E2E_SEED.seed });
await seedAnnotationE2E(db, actor); // issue 9
await db.$disconnect();

const root = path.resolve(import.meta.dirname, "..");
const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: `file:${file}`, RETERM_DEMO: "0", RETERM_USER: "local-admin" },
});
const stop = () => {
  server.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
