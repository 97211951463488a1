// Failure modes: (1) what computing signatures costs an import — the signature work alone, timed over the same
// prepared trajectories the import writes, as a share of the whole import's time in the same run; (2) the
// failure-modes ranking, a filtered ranking, a run comparison and the mode drill-down at N trajectories (median /
// p95 ms, ratio to a COUNT(*) baseline). Usage: BENCH_TAG=x BENCH_OUT=/tmp/dir tsx bench/failure-modes.ts [N=100000]
// [--skip-pg] [--runs=15]. Generated data (lib/generator) via seed-demo, the same data as bench/analytics.ts.
// --fixtures[=K]: only the import cost, on the real shared fixtures × K (default 10).
// --pg-url=<url>: only the page timings, on an existing PostgreSQL database (e.g. bench/browser-setup.ts's 10^6 one).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../lib/env.ts";
import { createDb } from "../lib/db/client.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import { generateTrajectories } from "../lib/generator/generate.ts";
import { addDetectedErrors, prepareTrajectory } from "../lib/db/bulk/rows.ts";
import { sqliteCodec } from "../lib/db/bulk/sqlite-writer.ts";
import { openBulkWriter } from "../lib/db/bulk/writer.ts";
import { walkInputs } from "../lib/importers/walk.ts";
import { importTrajectories } from "../lib/services/import/import-trajectories.ts";
import type { TrajectoryInput } from "../lib/domain/trajectory.ts";
import {
  countFailedTrajectories,
  findModeExamples,
  findModeForkCells,
  findModeRuns,
  findModes,
  findModeValues,
} from "../lib/db/repositories/failure-modes/modes.ts";
import { detectErrors, detectorText } from "../lib/domain/error-detector.ts";
import { signatureOf } from "../lib/domain/failure-modes/index.ts";
import { compareFailureModes, listFailureModes } from "../lib/services/failure-modes/index.ts";
import { listTrajectories } from "../lib/services/browse/browse-trajectories.ts";
import { EMPTY_FAILURE_MODE_FILTER } from "../lib/validation/failure-modes-params.ts";
import { trajectoryListQuerySchema } from "../lib/validation/search-params/index.ts";

const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 15);
const skipPg = process.argv.includes("--skip-pg");
const existingPg = process.argv.find((a) => a.startsWith("--pg-url="))?.slice(9);
const tag = process.env.BENCH_TAG ?? "fm";
const OUT = process.env.BENCH_OUT ?? path.join(os.tmpdir(), `reterm-bench-${tag}`);
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
fs.mkdirSync(OUT, { recursive: true });
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95) };
}

/** Signature CPU per trajectory (ms), set by signatureShare; the import's own time per trajectory is its denominator. */
let sigPerTrajectory = 0;

/** The signature work of an import, alone: over the detector's findings, as addDetectedErrors does it. */
function signatureShare(trajectories: readonly TrajectoryInput[]): void {
  const count = trajectories.length;
  const prepared = trajectories.map((t) => prepareTrajectory({ trajectory: t, sourceFormat: "native" }, sqliteCodec, null));
  const t0 = performance.now();
  for (const p of prepared) addDetectedErrors(p, sqliteCodec);
  const all = performance.now() - t0;
  let sigMs = 0;
  let sigs = 0;
  for (const p of prepared) {
    const steps = p.steps.map((r) => ({
      observation: typeof r[9] === "string" ? r[9] : undefined,
      exitCode: typeof r[10] === "number" ? r[10] : undefined,
    }));
    const found = detectErrors(steps);
    const s0 = performance.now();
    for (const d of found) {
      signatureOf(d, detectorText(steps[d.stepIndex]!.observation));
      sigs++;
    }
    sigMs += performance.now() - s0;
  }
  sigPerTrajectory = sigMs / count;
  console.log(
    `signatures: ${sigs} over ${count} trajectories: ${sigMs.toFixed(0)} ms of CPU; detection incl. signatures ${all.toFixed(0)} ms; load ${load()}`,
  );
}

/**
 * What writing signatures (their rows and the rollup upserts) costs the database side of an import: the same prepared
 * trajectories written by the provider's bulk writer into two fresh databases, with their signatures and with none.
 * Returns ms per trajectory of the difference, and of the write without signatures.
 */
async function signatureWriteCost(
  provider: DatabaseConfig["provider"],
  trajectories: readonly TrajectoryInput[],
): Promise<{ extra: number; base: number }> {
  const count = trajectories.length;
  const times: Record<string, number> = {};
  for (const withSignatures of [true, false, true, false]) {
    const name = `${tag}_sigwrite_${withSignatures ? "with" : "without"}`;
    let cfg: DatabaseConfig;
    if (provider === "sqlite") {
      const file = path.join(OUT, `${name}.db`);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      cfg = { provider, file, url: `file:${file}` };
    } else {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "reterm_${name}"`);
      await admin.query(`CREATE DATABASE "reterm_${name}"`);
      await admin.end();
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/reterm_${name}`;
      cfg = { provider, url: url.toString() };
    }
    await setupDatabase(cfg);
    const writer = await openBulkWriter(cfg, { threaded: false });
    const prepared = trajectories.map((t) => prepareTrajectory({ trajectory: t, sourceFormat: "native" }, writer.codec, null));
    for (const p of prepared) {
      addDetectedErrors(p, writer.codec);
      if (!withSignatures) p.signatures = [];
    }
    const t0 = performance.now();
    for (let i = 0; i < prepared.length; i += 200) await writer.write(prepared.slice(i, i + 200));
    const ms = performance.now() - t0;
    await writer.close();
    // Two rounds each, the faster kept: the first pays the cold start.
    times[String(withSignatures)] = Math.min(times[String(withSignatures)] ?? Infinity, ms);
  }
  const extra = (times.true! - times.false!) / count;
  console.log(
    `[write] ${provider}: ${count} trajectories written with signatures ${times.true!.toFixed(0)} ms, without ${times.false!.toFixed(0)} ms: +${extra.toFixed(3)} ms per trajectory; load ${load()}`,
  );
  return { extra, base: times.false! / count };
}

async function bench(provider: DatabaseConfig["provider"]) {
  let cfg: DatabaseConfig;
  if (provider === "sqlite") {
    const file = path.join(OUT, `failure-modes-${n}.db`);
    cfg = { provider, file, url: `file:${file}` };
  } else if (existingPg) {
    cfg = { provider, url: existingPg };
  } else {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/reterm_${tag}_fm_${n}`;
    cfg = { provider, url: url.toString() };
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    if (!(await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [url.pathname.slice(1)])).rowCount)
      await admin.query(`CREATE DATABASE "${url.pathname.slice(1)}"`);
    await admin.end();
  }
  await setupDatabase(cfg);
  const db = createDb(cfg);
  const actor = await ensureUser(db, "bench", "admin");
  const ctx = { db, actor };
  if ((await db.trajectory.count()) === 0) {
    const write = await signatureWriteCost(provider, [...generateTrajectories({ count: Math.min(n, 5000), seed: 12 })]);
    const t0 = performance.now();
    await seedDemo(ctx, { count: n, seed: 11, checkpoints: [100, 200, 400] });
    const ms = performance.now() - t0;
    // What signatures add: computing them (CPU, measured alone) plus writing their rows and the rollup (measured above).
    const sig = (sigPerTrajectory + write.extra) * n;
    console.log(
      `[setup] ${provider}: imported ${n} in ${(ms / 1000).toFixed(0)} s with signatures; computing them ≈ ${((sigPerTrajectory * n) / 1000).toFixed(1)} s, writing them ≈ ${((write.extra * n) / 1000).toFixed(1)} s: +${((sig / (ms - sig)) * 100).toFixed(1)} % over the import without them; load ${load()}`,
    );
    await db.$executeRawUnsafe(provider === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
  }
  // The two runs with the most failing steps: a comparison with something to compare.
  const busiest = await db.failureModeRollup.groupBy({
    by: ["runId"],
    _sum: { steps: true },
    orderBy: { _sum: { steps: "desc" } },
    take: 2,
  });
  const [a, b] = [{ id: busiest[0]!.runId }, { id: busiest[1]!.runId }];
  const first = (await listFailureModes(ctx, EMPTY_FAILURE_MODE_FILTER)).modes[0]!;
  const cases: [string, () => Promise<unknown>][] = [
    ["baseline: COUNT(*) trajectories", () => db.trajectory.count()],
    ["failure modes, unfiltered (top 50)", () => listFailureModes(ctx, EMPTY_FAILURE_MODE_FILTER)],
    ["failure modes, one run", () => listFailureModes(ctx, { ...EMPTY_FAILURE_MODE_FILTER, runId: [a.id] })],
    ["compare two runs", () => compareFailureModes(ctx, EMPTY_FAILURE_MODE_FILTER, { by: "run", baseline: a.id, compared: b.id })],
    ["table drill-down to the top mode (page 1)", () => listTrajectories(ctx, trajectoryListQuerySchema.parse({ mode: [first.id] }))],
  ];
  // The unfiltered page's queries one by one, for the top 50 modes (what to look at when the total is over).
  const ids = (await findModes(db, EMPTY_FAILURE_MODE_FILTER, 50)).modes.map((m) => m.templateHash);
  cases.push(
    ["  part: ranking (rollup)", () => findModes(db, EMPTY_FAILURE_MODE_FILTER, 50)],
    ["  part: runs per mode (rollup)", () => findModeRuns(db, EMPTY_FAILURE_MODE_FILTER, ids)],
    ["  part: top values", () => findModeValues(db, EMPTY_FAILURE_MODE_FILTER, ids, 5)],
    ["  part: examples", () => findModeExamples(db, EMPTY_FAILURE_MODE_FILTER, ids, 3)],
    ["  part: fork-point recovery", () => findModeForkCells(db, EMPTY_FAILURE_MODE_FILTER, ids)],
    ["  part: failed trajectories", () => countFailedTrajectories(db, EMPTY_FAILURE_MODE_FILTER)],
  );
  console.log(
    `\n${provider} — ${n.toLocaleString("en-US")} trajectories, ${await db.failureSignature.count()} signatures, ${runs} runs each; load ${load()}`,
  );
  let base = 0;
  for (const [name, fn] of cases) {
    await fn();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await fn();
      ms.push(performance.now() - t0);
    }
    const s = stats(ms);
    if (!base) base = s.median;
    console.log(`${name.padEnd(44)} ${s.median.toFixed(1).padStart(8)} ${s.p95.toFixed(1).padStart(8)}  ×${(s.median / base).toFixed(1)}`);
  }
  await db.$disconnect();
}

/**
 * --fixtures: the same two costs on the real shared fixtures (every format, each trajectory under its own id), as a
 * share of importing them (importTrajectories, the whole path) into a fresh database. Skips when ../shared is absent.
 */
async function fixtureShare(provider: DatabaseConfig["provider"], copies: number): Promise<void> {
  const dir = path.resolve(import.meta.dirname, "../../shared/fixtures");
  if (!fs.existsSync(dir)) return console.log(`--fixtures: ${dir} is absent; nothing to measure`);
  const base: TrajectoryInput[] = [];
  for await (const unit of walkInputs([dir])) {
    if (unit.kind !== "source") continue;
    for await (const r of unit.importer.read(unit.source, {})) if (r.ok) base.push(r.value.trajectory);
  }
  const all = Array.from({ length: copies }, (_, k) =>
    base.map((t, i) => ({ ...t, id: `${t.id ?? "fx"}#${i}~${k}`, fork: undefined })),
  ).flat();
  signatureShare(all);
  const write = await signatureWriteCost(provider, all);
  const file = path.join(OUT, `fixtures-import.db`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  let cfg: DatabaseConfig = { provider: "sqlite", file, url: `file:${file}` };
  if (provider === "postgresql") {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "reterm_${tag}_fx"`);
    await admin.query(`CREATE DATABASE "reterm_${tag}_fx"`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/reterm_${tag}_fx`;
    cfg = { provider, url: url.toString() };
  }
  await setupDatabase(cfg);
  const db = createDb(cfg);
  const actor = await ensureUser(db, "bench", "admin");
  const t0 = performance.now();
  const r = await importTrajectories(
    { db, actor },
    all.map((trajectory, i) => ({
      ok: true as const,
      value: { trajectory, sourceFormat: "native" as const },
      file: "fixtures",
      line: i + 1,
    })),
    { origin: "cli" },
  );
  const ms = performance.now() - t0;
  await db.$disconnect();
  const sig = (sigPerTrajectory + write.extra) * all.length;
  console.log(
    `[fixtures] ${provider}: ${base.length} real trajectories × ${copies} (${r.imported} imported) in ${(ms / 1000).toFixed(1)} s; signatures: computing ≈ ${((sigPerTrajectory * all.length) / 1000).toFixed(2)} s, writing ≈ ${((write.extra * all.length) / 1000).toFixed(2)} s: +${((sig / (ms - sig)) * 100).toFixed(1)} %; load ${load()}`,
  );
}

const fixtures = process.argv.find((a) => a.startsWith("--fixtures"));
if (fixtures) {
  const copies = Number(fixtures.split("=")[1] ?? 10);
  await fixtureShare("sqlite", copies);
  if (!skipPg) await fixtureShare("postgresql", copies);
  process.exit(0);
}

if (existingPg) {
  await bench("postgresql");
  process.exit(0);
}
signatureShare([...generateTrajectories({ count: Math.min(n, 5000), seed: 11 })]);
await bench("sqlite");
if (!skipPg) await bench("postgresql");
