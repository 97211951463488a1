// Tested as deployed (docs/deploy.md): two web replicas with RETERM_JOBS=off and workers on one PostgreSQL database
// and S3-compatible object storage (e2e/deploy/cluster.ts starts them). A dataset is created and frozen through
// replica A, exported through replica B, and the same bytes download from both; the worker writing the export is
// killed mid-file and a second worker finishes it; sign-in failures counted on A are refused on B whatever
// X-Forwarded-For says, while a clean account signs in on both with one session.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");

interface Cluster {
  a: string;
  b: string;
  token: string;
  env: Record<string, string>;
  bucketDir: string;
  users: Record<"admin" | "researcher", { name: string; password: string }>;
  trajectories: number;
}
interface JobSummary {
  id: string;
  kind: string;
  state: string;
  attempts: number;
  progressDone: number;
  progressTotal: number;
  worker: string | null;
  error: string | null;
}

let cluster: Cluster | null = null;
let skipReason = "";
let clusterProcess: ChildProcess | null = null;
const workers: ChildProcess[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  clusterProcess = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "e2e/deploy/cluster.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  clusterProcess.stderr!.on("data", (d) => (err = (err + d).slice(-20_000)));
  const line = await new Promise<string>((resolve, reject) => {
    clusterProcess!.stdout!.on("data", (d) => {
      out += d;
      const l = out.split("\n").find((x) => x.startsWith("{"));
      if (l) resolve(l);
    });
    clusterProcess!.once("exit", (code) => reject(new Error(`the cluster exited (${code}):\n${err}`)));
  });
  const parsed = JSON.parse(line) as Cluster | { skip: string };
  if ("skip" in parsed) skipReason = parsed.skip;
  else cluster = parsed;
});

test.afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
  if (clusterProcess && clusterProcess.exitCode === null) {
    clusterProcess.kill("SIGTERM");
    await new Promise((r) => clusterProcess!.once("exit", r));
  }
});

function startWorker(): ChildProcess {
  const w = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "cli/worker.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...cluster!.env, RETERM_JOBS: "on" },
  });
  w.stdout!.resume();
  w.stderr!.resume();
  workers.push(w);
  return w;
}

async function api(request: APIRequestContext, base: string, method: "GET" | "POST", url: string, data?: unknown) {
  const r = await request.fetch(`${base}${url}`, {
    method,
    data,
    headers: { authorization: `Bearer ${cluster!.token}` },
  });
  expect(r.status(), `${method} ${base}${url}: ${await r.text()}`).toBeLessThan(300);
  return r;
}
const json = async <T>(r: Awaited<ReturnType<typeof api>>) => (await r.json()) as T;
const job = async (request: APIRequestContext, base: string, id: string) =>
  json<JobSummary>(await api(request, base, "GET", `/api/v1/jobs/${id}`));

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 120_000, every = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}

test("frozen on A, exported through B, the same bytes from both; a killed worker's export is finished by another", async ({ request }) => {
  test.skip(!cluster, `PostgreSQL needed: ${skipReason}`);
  test.setTimeout(300_000);
  const { a, b } = cluster!;
  await api(request, a, "POST", "/api/v1/datasets", { name: "deployed", rules: { source: "filter", filter: "" } });
  const frozen = await json<{ version: number; storeExportsJob: string }>(
    await api(request, a, "POST", "/api/v1/datasets/deployed/freeze", {}),
  );
  expect(frozen.version).toBe(1);
  // The replicas run no jobs: storing the version's exports waits for a worker.
  await new Promise((r) => setTimeout(r, 1_500));
  expect((await job(request, b, frozen.storeExportsJob)).state).toBe("queued");

  const first = startWorker();
  await until(
    "storing the frozen exports",
    () => job(request, a, frozen.storeExportsJob),
    (j) => j.state === "succeeded",
    180_000,
    250,
  );

  // Raw observations are rendered from the items (not the stored bytes): long enough a write to kill mid-file.
  const started = await json<{ id: string; jobId: string; rowsTotal: number }>(
    await api(request, b, "POST", "/api/v1/datasets/deployed/exports", { format: "openai", options: { observations: "raw" } }),
  );
  expect(started.rowsTotal).toBeGreaterThan(0);
  const writing = await until(
    "the first worker writing",
    () => job(request, b, started.jobId),
    (j) => j.state !== "queued",
    60_000,
    20,
  );
  first.kill("SIGKILL");
  expect(writing.state, "the export finished before the worker could be killed; make the dataset larger").toBe("running");
  await new Promise((r) => first.once("exit", r));

  const second = startWorker();
  const done = await until(
    "the second worker finishing",
    () => job(request, a, started.jobId),
    (j) => j.state !== "running" && j.state !== "queued",
    120_000,
    250,
  );
  expect(done).toMatchObject({ state: "succeeded", attempts: 2, progressDone: started.rowsTotal });
  expect(done.worker).toBe(`${(await import("node:os")).hostname()}:${second.pid}`);

  const sha = async (base: string, file: string) => {
    const r = await api(request, base, "GET", `/api/exports/${started.id}/download?file=${file}`);
    return createHash("sha256")
      .update(await r.body())
      .digest("hex");
  };
  for (const file of ["data", "card", "provenance"]) expect(await sha(a, file), file).toBe(await sha(b, file));
  const data = (await (await api(request, a, "GET", `/api/exports/${started.id}/download`)).text()).trim().split("\n");
  expect(data).toHaveLength(started.rowsTotal);
  for (const line of data) expect(() => JSON.parse(line)).not.toThrow();
  // Only the run that completed left files: the killed run never wrote to the bucket or its files were removed.
  const runs = fs.readdirSync(path.join(cluster!.bucketDir, "lab", started.id));
  expect(runs).toHaveLength(1);
});

test("sign-in failures counted on A are refused on B, spoofed X-Forwarded-For or not; one session works on both", async ({ page }) => {
  test.skip(!cluster, `PostgreSQL needed: ${skipReason}`);
  test.setTimeout(180_000);
  const { a, b, users } = cluster!;
  const attempt = async (base: string, name: string, password: string, forwarded: string) => {
    await page.setExtraHTTPHeaders({ "x-forwarded-for": forwarded, "x-real-ip": forwarded });
    await page.goto(`${base}/sign-in`);
    await page.getByLabel("User name").fill(name);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  for (let i = 0; i < 5; i++) {
    await attempt(a, users.researcher.name, `wrong-${i}`, `10.66.0.${i}`);
    await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong user name or password.", { timeout: 30_000 });
  }
  // B has never seen these failures in its memory, and the header claims a fresh address: still refused.
  await attempt(b, users.researcher.name, users.researcher.password, "10.66.9.9");
  await expect(page.locator("form").getByRole("alert")).toContainText("Too many failed attempts", { timeout: 30_000 });
  // A clean account signs in from the same address on A, and the session holds on B (one secret, one database).
  await attempt(a, users.admin.name, users.admin.password, "10.66.9.10");
  await expect(page).toHaveURL(/\/trajectories/, { timeout: 30_000 });
  await page.goto(`${b}/admin/jobs`);
  await expect(page.getByRole("heading", { name: "Background jobs" })).toBeVisible();
  await expect(page.getByTestId("job-row").filter({ hasText: "openai export of deployed v1" })).toContainText("succeeded");
});
