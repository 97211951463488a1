// A deployment as docs/deploy.md describes it, on this machine: one PostgreSQL database, S3-compatible object storage
// (s3rver), and two web replicas (the production build through cli/next-server.mjs, as `npm start` serves it) with
// RETERM_JOBS=off, in team mode with one session secret. Workers are started by the spec (e2e/deployment.spec.ts),
// which kills them. Prints one JSON line when everything answers; SIGTERM stops the replicas and s3rver and drops the
// database. Run with tsx (it imports the app's services to seed; the spec's process does not).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { AddressInfo } from "node:net";
import { createTestDatabase, postgres } from "../../tests/helpers/test-db.ts";
import { freePort } from "../../tests/hostile/server.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { createUser } from "../../lib/services/accounts/manage-users.ts";
import { createApiTokenFor } from "../../lib/services/accounts/api-tokens.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Enough that writing the export takes a few seconds (the spec kills the worker while it writes).
const TRAJECTORIES = Number(process.env.DEPLOY_TRAJECTORIES ?? 1500);

if (!postgres.available) {
  console.log(JSON.stringify({ skip: postgres.reason }));
  process.exit(0);
}
const t = await createTestDatabase("postgresql");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-deploy-"));
const s3 = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory: path.join(dir, "s3"),
  configureBuckets: [{ name: "reterm-deploy", configs: [] }],
});
const s3Port = ((await s3.run()) as AddressInfo).port;

const rows = [...generateTrajectories({ count: TRAJECTORIES, seed: 77, recordingRate: 0.3 })].map((r, i) =>
  normalized(r, "native", "deploy.jsonl", i + 1),
);
await importTrajectories(t.ctx, rows, { origin: "cli", indexSearch: false });
const admin = await createUser(t.ctx, { name: "deploy-admin", role: "admin" });
const researcher = await createUser(t.ctx, { name: "deploy-researcher", role: "researcher" });
const token = (await createApiTokenFor({ db: t.db, actor: { id: admin.id, name: admin.name, role: "admin" } }, { tokenName: "deploy" }))
  .token;

// What every process of the deployment shares: the database, the storage, the session secret.
const shared: Record<string, string> = {
  DATABASE_URL: t.config.url,
  RETERM_STORAGE: "s3://reterm-deploy/lab",
  AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${s3Port}`,
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
  RETERM_AUTH: "on",
  RETERM_AUTH_SECRET: `deploy-${Math.random().toString(36).slice(2)}-${"s".repeat(32)}`,
  RETERM_DEMO: "0",
  RETERM_JOB_STALE_SECONDS: "3",
  NEXT_TELEMETRY_DISABLED: "1",
};

const replicas: ChildProcess[] = [];
const logs: string[] = [];
async function startReplica(name: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "cli/next-server.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...shared, RETERM_JOBS: "off" },
  });
  const i = logs.push("") - 1;
  const keep = (d: Buffer) => (logs[i] = ((logs[i] ?? "") + d).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  replicas.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; ;) {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited (${child.exitCode}):\n${logs[i]}`);
    if (Date.now() > deadline) throw new Error(`replica ${name} did not answer in 90 s:\n${logs[i]}`);
    const ok = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return base;
    await new Promise((r) => setTimeout(r, 250));
  }
}

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const r of replicas) r.kill("SIGTERM");
    await Promise.all(replicas.map((r) => (r.exitCode === null ? new Promise((res) => r.once("exit", res)) : null)));
    await s3.close().catch(() => undefined);
    await t.drop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

try {
  const [a, b] = await Promise.all([startReplica("A"), startReplica("B")]);
  console.log(
    JSON.stringify({
      a,
      b,
      token,
      env: shared,
      bucketDir: path.join(dir, "s3", "reterm-deploy"),
      users: {
        admin: { name: admin.name, password: admin.password },
        researcher: { name: researcher.name, password: researcher.password },
      },
      trajectories: TRAJECTORIES,
    }),
  );
} catch (e) {
  console.error((e as Error).message);
  await stop(1);
}
