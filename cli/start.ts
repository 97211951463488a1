// `npm start`: validate the environment, migrate, seed demo data into an empty database, build when the
// production build is missing or older than the sources, then serve the dashboard with `next start`.
import "./require-node.ts"; // first: stops with one line on an unsupported Node.js
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { authMode, getEnv, EnvError, isLoopbackHost } from "../lib/env.ts";
import { describeError } from "../lib/errors.ts";
import { closeDatabase, setupDatabase } from "../lib/services/system/setup-database.ts";
import { getLocalContext } from "../lib/services/context.ts";
import { getCliContext } from "../lib/services/cli-context.ts";
import { DEMO_CHECKPOINTS, seedDemo } from "../lib/services/system/seed-demo.ts";
import { assertTeamModeReady, loadAuthSecret } from "../lib/services/accounts/team-mode.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "components", "lib", "public"];
const SOURCE_FILES = ["next.config.ts", "package.json", "postcss.config.mjs", "tsconfig.json"];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    max = Math.max(max, newestMtime(path.join(p, e.name)));
  }
  return max;
}

function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((p) => newestMtime(path.join(ROOT, p)) > built);
}

async function main(): Promise<void> {
  const env = getEnv();
  const where = env.DATABASE_URL.provider === "sqlite" ? env.DATABASE_URL.file : env.DATABASE_URL.url.replace(/\/\/[^@]*@/, "//***@");
  console.log(`ReTerm Studio: database ${env.DATABASE_URL.provider} (${where})`);
  const { applied } = await setupDatabase(env.DATABASE_URL);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const mode = authMode(env);
  const serverEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", HOST: env.HOST };
  if (mode === "team") {
    await assertTeamModeReady();
    serverEnv.RETERM_AUTH_SECRET = loadAuthSecret(env.RETERM_AUTH_SECRET, path.join(ROOT, "data"));
  }
  if (env.RETERM_DEMO) {
    // Local mode loads it as the person at the machine; team mode as the account RETERM_USER names, never a made-up one.
    const ctx = mode === "local" ? await getLocalContext() : await getCliContext().catch(() => null);
    const report = ctx
      ? await seedDemo(ctx, { count: env.RETERM_DEMO_TRAJECTORIES, checkpoints: DEMO_CHECKPOINTS, onlyIfEmpty: true })
      : null;
    if (report) console.log(`Loaded ${report.imported} demo trajectories (set RETERM_DEMO=0 to skip).`);
  }
  await closeDatabase();

  const nextBin = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
  if (buildIsStale()) {
    console.log("Building the dashboard (first start or sources changed)…");
    const b = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (b.status !== 0) throw new Error("next build failed");
  }
  const shown = isLoopbackHost(env.HOST) ? "localhost" : env.HOST;
  console.log(
    `Dashboard: http://${shown}:${env.PORT} (${mode === "local" ? "local mode: this machine only, no sign-in" : "team mode: sign-in required"})`,
  );
  // next start behind a small gate for methods Next cannot represent (cli/next-server.mjs).
  const server = spawn(process.execPath, [path.join(ROOT, "cli", "next-server.mjs"), "-p", String(env.PORT), "-H", env.HOST], {
    cwd: ROOT,
    stdio: "inherit",
    env: serverEnv,
  });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => server.kill(sig));
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((e: unknown) => {
  if (e instanceof EnvError) console.error(`reterm start: ${e.message}`);
  else console.error(`reterm start: ${describeError(e).message}`);
  process.exit(1);
});
