// Analytics benchmark on SQLite and PostgreSQL at 10^5 trajectories. Usage:
//   nice -n 5 tsx bench/analytics.ts [trajectories=100000] [--runs=15] [--skip-pg] [--skip-sqlite] [--setup-only]
//     [--only=<part of a query name>] [--explain]
// Builds (or reuses) bench/out/analytics-<n>.db and the PostgreSQL database reterm_bench_analytics_<n>: generated
// trajectories with trained runs at checkpoints 100/200/400 (so every chart has data), fork-point labels on ~5% of
// fork points and "task-invalid" labels on a few trajectories. No search index (analytics do not read it).
// Times each analytics service (zod-free, straight to the service, as the page calls it) — median and p95 — and,
// in the same run, a baseline: the unfiltered COUNT(*) of trajectories the stats line issues, so the ratio shows
// how many "full counts" each figure costs. --explain prints the plan (EXPLAIN QUERY PLAN / EXPLAIN) of every
// statement each timed call sends, at this size; --only times the queries whose name contains the text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../lib/env.ts";
import { createDb, type Db } from "../lib/db/client.ts";
import { createLoggedDb, explain, readStatements } from "../lib/db/diagnostics/query-plans.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { getStats } from "../lib/services/browse/get-stats.ts";
import type { ServiceContext } from "../lib/services/context.ts";
import { getRecoveryAnalytics } from "../lib/services/analytics/get-recovery-analytics.ts";
import { getTrainingProgress } from "../lib/services/analytics/get-training-progress.ts";
import { getTaskHealth } from "../lib/services/analytics/get-task-health.ts";
import { getDistributions } from "../lib/services/analytics/get-distributions.ts";
import { compareRuns } from "../lib/services/analytics/compare-runs.ts";
import { getAnalyticsOptions } from "../lib/services/analytics/get-analytics-options.ts";
import { getAnnotationAnalytics } from "../lib/services/analytics/get-annotation-analytics.ts";
import { getDrillScope } from "../lib/services/analytics/drill-runs.ts";
import { forOneRender } from "../lib/services/analytics/render-memo.ts";
import { listTrajectories } from "../lib/services/browse/browse-trajectories.ts";
import { EMPTY_ANALYTICS_FILTER } from "../lib/validation/analytics-params.ts";
import { trajectoryListQuerySchema } from "../lib/validation/search-params/index.ts";

const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 15);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const explainPlans = process.argv.includes("--explain");
// BENCH_OUT and BENCH_PG_PREFIX let parallel sessions on a shared machine keep their databases apart.
const OUT = process.env.BENCH_OUT ?? path.resolve(import.meta.dirname, "out");
const PG_PREFIX = process.env.BENCH_PG_PREFIX ?? "reterm_bench_analytics";
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function config(provider: DatabaseConfig["provider"]): DatabaseConfig {
  if (provider === "sqlite") {
    const file = path.join(OUT, `analytics-${n}.db`);
    return { provider, file, url: `file:${file}` };
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_PREFIX}_${n}`;
  return { provider, url: url.toString() };
}

async function prepare(cfg: DatabaseConfig): Promise<{ db: Db; ctx: ServiceContext }> {
  fs.mkdirSync(OUT, { recursive: true });
  if (cfg.provider === "postgresql") {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    const name = new URL(cfg.url).pathname.slice(1);
    if (!(await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount)
      await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
  }
  await setupDatabase(cfg);
  const db = createDb(cfg);
  const actor = await ensureUser(db, "bench", "admin");
  const ctx = { db, actor };
  const count = await db.trajectory.count();
  if (count !== n) {
    if (count > 0) throw new Error(`${cfg.provider}: benchmark database holds ${count} trajectories, expected ${n}; delete it and re-run`);
    const t0 = performance.now();
    await seedDemo(ctx, { count: n, seed: 11, checkpoints: [100, 200, 400] });
    console.log(`[setup] ${cfg.provider}: imported ${n} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  // Labels are added once (also when an earlier setup was interrupted after the import).
  if ((await db.annotation.count({ where: { forkPointId: { not: null } } })) === 0) {
    const schema = await db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
    const forks = await db.forkPoint.findMany({ select: { id: true, trajectoryId: true }, orderBy: { id: "asc" } });
    const labelled = forks.filter((_, i) => i % 20 === 0);
    await db.annotation.createMany({
      data: labelled.map((f, i) => ({
        schemaId: schema.id,
        annotatorId: actor.id,
        targetType: "fork_point",
        targetKey: `fork:${f.id}`,
        trajectoryId: f.trajectoryId,
        forkPointId: f.id,
        value: i % 2 ? "unaddressed-error" : "premature-completion",
      })),
    });
    const some = await db.trajectory.findMany({ select: { id: true }, where: { parentId: null }, take: 40, orderBy: { id: "asc" } });
    await db.annotation.createMany({
      data: some.map((t) => ({
        schemaId: schema.id,
        annotatorId: actor.id,
        targetType: "trajectory",
        targetKey: `traj:${t.id}`,
        trajectoryId: t.id,
        value: "task-invalid",
      })),
    });
    console.log(`[setup] ${cfg.provider}: labelled ${labelled.length} of ${forks.length} fork points`);
  }
  // A second annotator on every other labelled fork point (disagreeing on every third), so agreement over time has data.
  const second = await ensureUser(db, "bench-2", "annotator");
  if ((await db.annotation.count({ where: { annotatorId: second.id } })) === 0) {
    const firsts = await db.annotation.findMany({ where: { annotatorId: actor.id, forkPointId: { not: null } }, orderBy: { id: "asc" } });
    const picked = firsts.filter((_, i) => i % 2 === 0);
    await db.annotation.createMany({
      data: picked.map((a, i) => ({
        schemaId: a.schemaId,
        annotatorId: second.id,
        targetType: a.targetType,
        targetKey: a.targetKey,
        trajectoryId: a.trajectoryId,
        forkPointId: a.forkPointId,
        value: i % 3 === 0 ? "timeout" : a.value,
      })),
    });
    console.log(`[setup] ${cfg.provider}: second annotator labelled ${picked.length} fork points`);
  }
  await db.$executeRawUnsafe(cfg.provider === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
  return { db, ctx };
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95) };
}

async function bench(provider: DatabaseConfig["provider"]) {
  const cfg = config(provider);
  const { db: setupDb } = await prepare(cfg);
  await setupDb.$disconnect();
  if (process.argv.includes("--setup-only")) return;
  const db = createDb(cfg);
  const actor = await ensureUser(db, "bench", "admin");
  const allRuns = await db.run.findMany({ select: { id: true, name: true, trainingMethod: true }, orderBy: { name: "asc" } });
  const base = allRuns.find((r) => r.trainingMethod === "base")!;
  const trained = allRuns.find((r) => r.name.endsWith("recovery-grpo-s400"))!;
  const f = EMPTY_ANALYTICS_FILTER;
  const recovery = await getRecoveryAnalytics({ db, actor }, f);
  const top = recovery.categories[0]!;
  const drill = trajectoryListQuerySchema.parse({ forkError: top.category ?? "none", attempt: "yes" });
  const casesFor = (ctx: ServiceContext): [string, () => Promise<unknown>][] =>
    (
      [
        ["baseline: COUNT(*) trajectories (stats line)", () => ctx.db.trajectory.count()],
        ["recovery by category (all runs)", () => getRecoveryAnalytics(ctx, f)],
        ["recovery by category (one run)", () => getRecoveryAnalytics(ctx, { ...f, runId: [trained.id] })],
        [
          "recovery by category (method + task category)",
          () => getRecoveryAnalytics(ctx, { ...f, method: ["recovery-grpo"], category: ["software-engineering"] }),
        ],
        ["pass@k by checkpoint", () => getTrainingProgress(ctx, f)],
        ["task health", () => getTaskHealth(ctx, f)],
        ["distributions (all runs)", () => getDistributions(ctx, f)],
        ["distributions (one run)", () => getDistributions(ctx, { ...f, runId: [trained.id] })],
        ["run comparison (2 runs, bootstrap)", () => compareRuns(ctx, [base.id, trained.id], 1, f)],
        ["annotation progress + agreement (weeks)", () => getAnnotationAnalytics(ctx, f, "week")],
        ["annotation progress + agreement (days)", () => getAnnotationAnalytics(ctx, f, "day")],
        ["filter options", () => getAnalyticsOptions(ctx)],
        ["database counts", () => getStats(ctx)],
        ["drill-down page: attempts of top category", () => listTrajectories(ctx, drill)],
      ] satisfies [string, () => Promise<unknown>][]
    ).filter(([k], i) => i === 0 || !only || k.includes(only));
  if (explainPlans) {
    // Plans come from a second client that logs its statements; timing uses the app's own client (logging every
    // query made the timed figures several times slower).
    const { db: logged, log } = createLoggedDb(cfg);
    for (const [k, fn] of casesFor({ db: logged, actor })) {
      log.length = 0;
      await fn();
      console.log(`\n${provider} — ${k}`);
      for (const st of readStatements([...log]))
        console.log(`  ${st.sql.replace(/\s+/g, " ").slice(0, 200)}…\n${(await explain(logged, st)).map((l) => `    ${l}`).join("\n")}`);
    }
    await logged.$disconnect();
  }
  const ctx: ServiceContext = { db, actor };
  const cases = casesFor(ctx);
  const times = new Map<string, number[]>(cases.map(([k]) => [k, []]));
  for (const [, fn] of cases) await fn(); // warm-up
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of cases) {
      const t0 = performance.now();
      await fn();
      times.get(k)!.push(performance.now() - t0);
    }
  }
  // The page's calls as app/(dashboard)/analytics/page.tsx makes them: the filter options first, then every section
  // concurrently (each streams in its own Suspense boundary), all with one context made for the render (shared reads).
  const page: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const render = forOneRender(ctx);
    await getAnalyticsOptions(render);
    await Promise.all([
      getRecoveryAnalytics(render, f),
      getTrainingProgress(render, f),
      getDrillScope(render, f),
      getTaskHealth(render, f),
      getDrillScope(render, f),
      getDistributions(render, f),
      getAnnotationAnalytics(render, f, "week"),
      getStats(render),
    ]);
    page.push(performance.now() - t0);
  }
  const baseline = stats(times.get(cases[0]![0])!).median;
  console.log(
    `\n${provider} — ${n.toLocaleString("en-US")} trajectories, ${runs} runs each (median / p95 ms, ratio of median to the COUNT(*) baseline); load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  for (const [k] of cases) {
    const s = stats(times.get(k)!);
    console.log(
      `  ${k.padEnd(48)} ${s.median.toFixed(1).padStart(8)} ${s.p95.toFixed(1).padStart(8)}   ${(s.median / baseline).toFixed(2)}×`,
    );
  }
  const p = stats(page);
  console.log(
    `  ${"all page queries together (as the page runs them)".padEnd(48)} ${p.median.toFixed(1).padStart(8)} ${p.p95.toFixed(1).padStart(8)}   ${(p.median / baseline).toFixed(2)}×`,
  );
  await db.$disconnect();
}

for (const provider of ["sqlite", "postgresql"] as const) {
  if (process.argv.includes(`--skip-${provider === "sqlite" ? "sqlite" : "pg"}`)) continue;
  await bench(provider);
}
