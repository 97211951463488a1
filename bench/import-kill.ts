// Kill test: an import killed (SIGKILL) at a random moment and then re-run must end exactly where an uninterrupted
// import of the same inputs ends — trajectories, steps, detected errors, recordings, fork points and links (explicit
// and inferred), attempts waiting for a parent, denormalized fork counts, the search index, replay layouts, and no
// job left running. Runs the real CLI (`node --import tsx cli/reterm.ts import …`) in a child process.
//
// Usage: nice -n 5 node --import tsx bench/import-kill.ts [trajectories=2000] [--kills 10] [--seed 1] [--skip-pg]
// Inputs: two generated native JSONL files (one with explicit fork links, with attempts written before their
// parents; one without links, so forks are inferred), plus the shared asciicast fixtures when ../shared is present
// (one is large enough to have its replay laid out during the import).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { generateTrajectories } from "../lib/generator/generate.ts";
import { createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "../tests/helpers/test-db.ts";
import { SHARED_FIXTURES } from "../tests/helpers/shared-fixtures.ts";
import { findInterruptedImports } from "../lib/services/import-integrity/interrupted-imports.ts";
import type { Db } from "../lib/db/client.ts";

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
const kills = flag("kills", 10);
let seed = flag("seed", 1);
const skipPg = args.includes("--skip-pg");
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "bench", "out");
fs.mkdirSync(outDir, { recursive: true });

/** Deterministic kill moments (mulberry32). */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function writeInputs(): string[] {
  const linked = path.join(outDir, `kill-linked-${n}.jsonl`);
  const unlinked = path.join(outDir, `kill-unlinked-${n}.jsonl`);
  if (!fs.existsSync(linked)) {
    const all = [...generateTrajectories({ count: n, seed: 7 })];
    // Attempts first: their parents arrive later in the same import and must still be linked.
    const ordered = [...all.filter((t) => t.fork), ...all.filter((t) => !t.fork)];
    fs.writeFileSync(linked, ordered.map((t) => JSON.stringify(t)).join("\n") + "\n");
  }
  if (!fs.existsSync(unlinked)) {
    const all = [...generateTrajectories({ count: n, seed: 8 })].map(({ fork: _fork, ...t }) => t);
    fs.writeFileSync(unlinked, all.map((t) => JSON.stringify(t)).join("\n") + "\n");
  }
  const casts = ["server__v3-big.cast", "server__v2-welcome.cast", "player__simple.v2.cast"].map((f) =>
    path.join(SHARED_FIXTURES, "asciicast", f),
  );
  return [linked, unlinked, ...casts.filter((f) => fs.existsSync(f))];
}

/** When the import's job row appears: process start, compilation and migrations are over, the work begins. */
async function jobCreated(db: Db, done: () => boolean): Promise<number | null> {
  while (!done()) {
    if ((await db.importJob.count()) > 0) return Date.now();
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}

/**
 * Run the CLI import. `killAfterMs`: SIGKILL that long after its job row appears (kills during start-up, before any
 * job exists, test nothing but re-running). Returns how long the work took from the job's creation.
 */
async function runImport(
  t: TestDatabase,
  inputs: string[],
  killAfterMs?: number,
): Promise<{ code: number | null; killed: boolean; workMs: number; stderr: string }> {
  const config = t.config;
  const child = spawn(process.execPath, ["--max-old-space-size=512", "--import", "tsx", "cli/reterm.ts", "import", ...inputs, "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: config.url },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let killed = false;
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const jobAt = await jobCreated(t.db, () => exited);
  let timer: NodeJS.Timeout | undefined;
  if (killAfterMs !== undefined && jobAt !== null) timer = setTimeout(() => (killed = child.kill("SIGKILL")), killAfterMs);
  const code = await exit;
  clearTimeout(timer);
  return { code, killed: killed && code === null, workMs: jobAt === null ? 0 : Date.now() - jobAt, stderr };
}

const digest = (lines: string[]) => createHash("sha256").update(lines.sort().join("\n")).digest("hex").slice(0, 16);

/** Everything an import leaves behind, independent of generated ids and timestamps. */
async function snapshot(db: Db, provider: Provider): Promise<Record<string, string | number>> {
  const q = <T>(sql: string) => db.$queryRawUnsafe<T[]>(sql);
  const trajs = await q<{
    id: string;
    h: string;
    sc: number;
    w: number;
    fp: number;
    ac: number;
    rr: number | null;
    fe: string | null;
    pend: string | null;
  }>(
    `SELECT "id", "contentHash" AS h, "stepCount" AS sc, "warningCount" AS w, "forkPointCount" AS fp, "attemptCount" AS ac, "recoveryRate" AS rr, "firstErrorCategory" AS fe, "pendingParentRef" AS pend FROM "Trajectory"`,
  );
  const hashOf = new Map(trajs.map((t) => [t.id, t.h]));
  const links = await q<{ id: string; p: string | null; s: number | null; a: number | null; i: boolean | number }>(
    `SELECT "id", "parentId" AS p, "forkStepIndex" AS s, "attemptIndex" AS a, "forkInferred" AS i FROM "Trajectory" WHERE "parentId" IS NOT NULL`,
  );
  const forks = await q<{ t: string; s: number; o: string; c: string | null }>(
    `SELECT "trajectoryId" AS t, "stepIndex" AS s, "origin" AS o, "errorCategory" AS c FROM "ForkPoint"`,
  );
  const count = async (sql: string) => Number((await q<{ n: number | bigint }>(sql))[0]!.n);
  return {
    trajectories: trajs.length,
    trajectoryDigest: digest(trajs.map((t) => `${t.h} ${t.sc} ${t.w} ${t.fp} ${t.ac} ${t.rr ?? "-"} ${t.fe ?? "-"}`)),
    steps: await count(`SELECT COUNT(*) AS n FROM "Step"`),
    detectedErrors: await count(`SELECT COUNT(*) AS n FROM "DetectedError"`),
    recordingChunks: await count(`SELECT COUNT(*) AS n FROM "RecordingChunk"`),
    forkPoints: forks.length,
    forkPointDigest: digest(forks.map((f) => `${hashOf.get(f.t)} ${f.s} ${f.o} ${f.c ?? "-"}`)),
    linkedAttempts: links.length,
    linkDigest: digest(links.map((l) => `${hashOf.get(l.id)} <- ${l.p ? hashOf.get(l.p) : "-"} @${l.s} #${l.a} ${Number(l.i)}`)),
    waitingForParent: trajs.filter((t) => t.pend !== null).length,
    searchIndexed: await count(`SELECT COUNT(*) AS n FROM "step_search_doc" d JOIN "Trajectory" t ON t."id" = d."trajectory_id"`),
    // The SQLite index is contentless (no COUNT): a query over a word every generated trajectory holds counts it.
    searchRows: await count(
      provider === "sqlite"
        ? `SELECT COUNT(*) AS n FROM "step_fts" WHERE "step_fts" MATCH 'the'`
        : `SELECT COUNT(*) AS n FROM "step_search" WHERE "tsv" @@ to_tsquery('simple', 'the')`,
    ),
    replayLayouts: await count(`SELECT COUNT(*) AS n FROM "ReplayLayout"`),
    jobsRunning: await count(`SELECT COUNT(*) AS n FROM "ImportJob" WHERE "status" = 'running'`),
  };
}

function diff(a: Record<string, string | number>, b: Record<string, string | number>): string[] {
  return Object.keys(a)
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: expected ${a[k]}, got ${b[k]}`);
}

async function trial(provider: Provider, inputs: string[]): Promise<void> {
  const base = await createTestDatabase(provider);
  let expected: Record<string, string | number>;
  let fullMs: number;
  try {
    const r = await runImport(base, inputs);
    if (r.code !== 0) throw new Error(`uninterrupted import failed (exit ${r.code}): ${r.stderr.slice(-2000)}`);
    fullMs = r.workMs;
    expected = await snapshot(base.db, provider);
  } finally {
    await base.drop();
  }
  console.log(`\n${provider}: uninterrupted import, ${(fullMs / 1000).toFixed(1)} s of work after start-up →`, JSON.stringify(expected));
  let realKills = 0,
    mismatches = 0,
    interruptedShown = 0,
    attempts = 0;
  while (realKills < kills && attempts < kills * 3) {
    attempts++;
    const t = await createTestDatabase(provider);
    try {
      // Kill moments spread over the whole of the import's work, from its job row to its last phase.
      const at = Math.round(random() * fullMs);
      const first = await runImport(t, inputs, at);
      if (!first.killed) {
        console.log(`  kill at ${at} ms: the import had already finished (exit ${first.code}); not counted`);
        continue;
      }
      realKills++;
      const written = await t.db.trajectory.count();
      const interrupted = (await findInterruptedImports(t.ctx)).length;
      if (interrupted > 0) interruptedShown++;
      const second = await runImport(t, inputs);
      const got = await snapshot(t.db, provider);
      const d = second.code === 0 ? diff(expected, got) : [`re-run failed (exit ${second.code}): ${second.stderr.slice(-500)}`];
      if (d.length) mismatches++;
      console.log(
        `  kill ${realKills} at ${at} ms after the job started: ${written} trajectories written, ${interrupted} job(s) shown interrupted → re-run ${d.length ? `MISMATCH\n    ${d.join("\n    ")}` : "matches"}`,
      );
    } finally {
      await t.drop();
    }
  }
  console.log(`${provider}: ${realKills} kills, ${mismatches} mismatches, ${interruptedShown} kills left a job shown as interrupted`);
  if (mismatches || realKills < kills) process.exitCode = 1;
}

const inputs = writeInputs();
console.log(`inputs: ${inputs.map((i) => path.relative(root, i)).join(", ")} (${n} + ${n} generated trajectories)`);
for (const p of PROVIDERS) {
  if (p.provider === "postgresql" && (skipPg || p.skip)) {
    console.log(`\npostgresql: skipped${p.skip ? ` (${p.title})` : ""}`);
    continue;
  }
  await trial(p.provider, inputs);
}
