// Background jobs on both databases (pg-boss delivery on PostgreSQL, the Job table on SQLite): a job runs once to
// its effect, failures retry up to the kind's attempts and then fail with the error shown, errors no retry can change
// fail at once, a run that lost its job records nothing, and a job whose worker died is queued again and finished.
import { spawnSync } from "node:child_process";
import path from "node:path";
// Read when the first runner is made (getEnv is lazy): a dead run is noticed after a second.
process.env.RETERM_JOB_STALE_SECONDS = "1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS, createTestDatabase, type TestDatabase } from "../helpers/test-db.ts";
import { jobRunner, type JobKind } from "../../lib/jobs/index.ts";
import { AppError } from "../../lib/errors.ts";
import { getBackgroundJob, listBackgroundJobs } from "../../lib/services/jobs/list-jobs.ts";
import type { JobSummary } from "../../lib/services/jobs/list-jobs.ts";
import { startJobWorker, stopJobWorker } from "../../lib/services/jobs/start-worker.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { normalized } from "../../lib/importers/util.ts";
import { importTrajectories } from "../../lib/services/import/import-trajectories.ts";
import { searchIndexLag } from "../../lib/db/repositories/search/index.ts";
import { listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

async function settled(t: TestDatabase, id: string, ms = 30_000): Promise<JobSummary> {
  const deadline = Date.now() + ms;
  for (;;) {
    const j = await getBackgroundJob(t.ctx, id);
    if (j.state === "succeeded" || j.state === "failed") return j;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${j.state} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const p of PROVIDERS) {
  describe.skipIf(p.skip)(`background jobs (${p.title})`, () => {
    let t: TestDatabase;
    const effects: string[] = [];
    const failures: string[] = [];
    const discarded: string[] = [];
    let flaky = 0;
    let gate: { reached: () => void; release: Promise<void> } | null = null;

    const kinds: JobKind<{ n: number }>[] = [
      {
        kind: "test-ok",
        maxAttempts: 3,
        async run({ payload, progress }) {
          progress(1, 2);
          return { result: `did ${payload.n}`, progressDone: 2, effect: async () => void effects.push(`ok ${payload.n}`) };
        },
      },
      {
        kind: "test-flaky",
        maxAttempts: 3,
        async run({ payload }) {
          if (++flaky < 3) throw new Error(`flaky failure ${flaky}`);
          return { effect: async () => void effects.push(`flaky ${payload.n}`) };
        },
      },
      {
        kind: "test-broken",
        maxAttempts: 2,
        async run() {
          throw new Error("always broken");
        },
        onFailed: async (payload, error) => void failures.push(`${payload.n}: ${error}`),
      },
      {
        kind: "test-permanent",
        maxAttempts: 3,
        async run() {
          throw new AppError("NOT_FOUND", "the dataset is gone");
        },
        onFailed: async (payload, error) => void failures.push(`${payload.n}: ${error}`),
      },
      {
        kind: "test-gated",
        maxAttempts: 3,
        async run({ payload, runId }) {
          if (gate) {
            gate.reached();
            await gate.release;
          }
          return { effect: async () => void effects.push(`gated ${payload.n} ${runId}`) };
        },
        discardRun: async (_payload, runId) => void discarded.push(runId),
      },
    ];

    beforeAll(async () => {
      t = await createTestDatabase(p.provider);
      await jobRunner(t.db).start(kinds as JobKind<never>[]);
    }, 60_000);
    afterAll(async () => {
      await t?.drop();
    });

    const enqueue = (kind: string, n: number) =>
      jobRunner(t.db).enqueue(
        { kind, maxAttempts: kinds.find((k) => k.kind === kind)!.maxAttempts },
        { n },
        {
          title: `${kind} ${n}`,
          createdById: t.ctx.actor.id,
        },
      );

    it("runs a job once to its effect, with its progress and result on the jobs list", async () => {
      const queued = await enqueue("test-ok", 1);
      expect(queued.state).toBe("queued");
      const done = await settled(t, queued.id);
      expect(done).toMatchObject({ state: "succeeded", attempts: 1, result: "did 1", progressDone: 2, progressTotal: 2, error: null });
      expect(done.worker).toMatch(/:\d+$/);
      expect(effects.filter((e) => e === "ok 1")).toHaveLength(1);
      const listed = await listBackgroundJobs(t.ctx, { limit: 10 });
      expect(listed.jobs.find((j) => j.id === queued.id)).toMatchObject({ title: "test-ok 1", state: "succeeded" });
      expect(listed.counts.succeeded).toBeGreaterThanOrEqual(1);
      const viewer = await t.as("viewer-jobs", "viewer");
      await expect(listBackgroundJobs(viewer)).rejects.toMatchObject({ code: "FORBIDDEN" });
    });

    it("retries a failing run, and fails for good after the kind's attempts with the error and its effect", async () => {
      const flakyJob = await settled(t, (await enqueue("test-flaky", 2)).id);
      expect(flakyJob).toMatchObject({ state: "succeeded", attempts: 3 });
      expect(effects.filter((e) => e === "flaky 2")).toHaveLength(1);

      const broken = await settled(t, (await enqueue("test-broken", 3)).id);
      expect(broken).toMatchObject({ state: "failed", attempts: 2, error: "always broken" });
      expect(failures.filter((f) => f === "3: always broken")).toHaveLength(1);
    }, 60_000);

    it("fails at once on an error another attempt cannot change", async () => {
      const gone = await settled(t, (await enqueue("test-permanent", 4)).id);
      expect(gone).toMatchObject({ state: "failed", attempts: 1, error: "the dataset is gone" });
      expect(failures).toContain("4: the dataset is gone");
    });

    it("a run that lost its job records no effect and removes what it wrote", async () => {
      let reached!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      let release!: () => void;
      gate = { reached, release: new Promise<void>((r) => (release = r)) };
      const queued = await enqueue("test-gated", 5);
      await atGate;
      const running = await t.db.job.findUniqueOrThrow({ where: { id: queued.id } });
      expect(running.state).toBe("running");
      // Another worker took the job over (as the reaper does when a heartbeat stops) and finished it.
      await t.db.job.update({ where: { id: queued.id }, data: { runToken: "another-run", state: "succeeded", finishedAt: new Date() } });
      gate = null;
      release();
      for (let i = 0; i < 100 && !discarded.includes(running.runToken!); i++) await new Promise((r) => setTimeout(r, 50));
      expect(discarded).toContain(running.runToken);
      expect(effects.filter((e) => e.startsWith("gated 5"))).toEqual([]);
      expect(await getBackgroundJob(t.ctx, queued.id)).toMatchObject({ state: "succeeded", attempts: 1 });
    });

    it("an API push answers before its big replays are laid out; a worker lays them out", async () => {
      const [big] = [...generateTrajectories({ count: 1, seed: 91 })];
      big!.steps[0]!.observation = "line of output from a long build\r\n".repeat(90_000); // ≈ 3 MB
      const report = await importTrajectories(t.ctx, [normalized(big!, "native", "push.jsonl", 1)], { origin: "api", indexSearch: false });
      expect(report.imported).toBe(1);
      const queued = (await listBackgroundJobs(t.ctx, { limit: 50 })).jobs.find((j) => j.kind === "replay-layouts");
      expect(queued).toMatchObject({ progressTotal: 1 });
      expect(await t.db.replayLayout.count({ where: { trajectoryId: report.trajectoryIds[0] } })).toBe(0);
      await startJobWorker(t.db);
      expect(await settled(t, queued!.id, 60_000)).toMatchObject({
        state: "succeeded",
        result: "1 of 1 replays laid out (the rest were already)",
      });
      expect(await t.db.replayLayout.count({ where: { trajectoryId: report.trajectoryIds[0] } })).toBe(1);
    }, 90_000);

    it("an API push leaves its search index to a job; a worker indexes it and a search finds the trajectories", async () => {
      const pushed = [...generateTrajectories({ count: 3, seed: 92 })];
      pushed[0]!.steps[0]!.observation = "qzxjobindexedword appears only here";
      const report = await importTrajectories(
        t.ctx,
        pushed.map((x, i) => normalized(x, "native", "push.jsonl", i + 1)),
        { origin: "api" },
      );
      expect(report.imported).toBe(3);
      const queued = (await listBackgroundJobs(t.ctx, { limit: 50 })).jobs.find((j) => j.kind === "search-index");
      expect(queued).toMatchObject({ progressTotal: 3 });
      await startJobWorker(t.db);
      const done = await settled(t, queued!.id, 60_000);
      expect(done, JSON.stringify(done)).toMatchObject({ state: "succeeded" });
      expect((await getBackgroundJob(t.ctx, queued!.id))?.result).toMatch(/^\d+ trajectories added to the search index$/);
      expect(await searchIndexLag(t.db)).toBe(0);
      const found = await listTrajectories(t.ctx, trajectoryListQuerySchema.parse({ q: "qzxjobindexedword" }));
      expect(found.rows.map((r) => r.id)).toEqual([report.trajectoryIds[0]]);
    }, 90_000);

    it("queues again a job whose worker stopped beating, and another run finishes it", async () => {
      // A run of a worker that died: running, its heartbeat long stopped, its token no one holds.
      const dead = await t.db.job.create({
        data: {
          kind: "test-gated",
          payload: JSON.stringify({ n: 6 }),
          title: "test-gated 6",
          state: "running",
          attempts: 1,
          maxAttempts: 3,
          runToken: "dead-run",
          worker: "gone-host:1",
          heartbeatAt: new Date(Date.now() - 60_000),
          startedAt: new Date(Date.now() - 60_000),
        },
      });
      const done = await settled(t, dead.id);
      expect(done).toMatchObject({ state: "succeeded", attempts: 2 });
      expect(done.worker).not.toBe("gone-host:1");
      expect(effects.filter((e) => e.startsWith("gated 6"))).toHaveLength(1);
    });

    it("a worker that stops hands its run back to the queue without spending an attempt; the next worker finishes it", async () => {
      let reached!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      let release!: () => void;
      gate = { reached, release: new Promise<void>((r) => (release = r)) };
      const queued = await enqueue("test-gated", 7);
      await atGate;
      const stopping = stopJobWorker(t.db);
      gate = null;
      release();
      await stopping;
      expect(await getBackgroundJob(t.ctx, queued.id)).toMatchObject({ state: "queued", attempts: 0 });
      expect(effects.filter((e) => e.startsWith("gated 7"))).toEqual([]);
      await jobRunner(t.db).start(kinds as JobKind<never>[]);
      expect(await settled(t, queued.id)).toMatchObject({ state: "succeeded", attempts: 1 });
      expect(effects.filter((e) => e.startsWith("gated 7"))).toHaveLength(1);
    }, 60_000);

    it("`reterm jobs` lists them for the operator, as JSON too", () => {
      const r = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "cli/reterm.ts", "jobs", "--state", "failed", "--json"],
        {
          cwd: ROOT,
          encoding: "utf8",
          timeout: 120_000,
          env: { ...process.env, DATABASE_URL: t.config.url, RETERM_USER: "test-admin" },
        },
      );
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { jobs: JobSummary[]; counts: Record<string, number> };
      expect(out.jobs.map((j) => j.title).sort()).toEqual(["test-broken 3", "test-permanent 4"]);
      expect(out.counts.failed).toBe(2);
    }, 120_000);
  });
}
