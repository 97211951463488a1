// Builds (or reuses) the benchmark databases for bench/browser.ts: N generated trajectories imported through the
// import service, a sprinkling of annotations and two datasets (so every facet has real data), then the search
// index built by reindexSearch. Usage on its own: tsx bench/browser-setup.ts [trajectories=100000] [--skip-pg] [--skip-sqlite]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../lib/env.ts";
import { createDb, type Db } from "../lib/db/client.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { seedDemo } from "../lib/services/system/seed-demo.ts";
import type { ImportReport } from "../lib/services/import/import-trajectories.ts";
import type { ServiceContext } from "../lib/services/context.ts";
import { reindexSearch, searchIndexLag } from "../lib/db/repositories/search/index.ts";

// Generated data never lives in the repository: /tmp (or BENCH_OUT). BENCH_TAG keeps parallel checkouts apart on a
// shared PostgreSQL server.
export const OUT_DIR = process.env.BENCH_OUT ?? path.join(os.tmpdir(), "reterm-bench");
const TAG = (process.env.BENCH_TAG ?? "").replace(/[^a-z0-9_]/gi, "");
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** The database of `n` generated trajectories, or of another kind of data named by `kind` (e.g. `fixtures_x250`). */
export function benchConfig(provider: DatabaseConfig["provider"], n: number, kind: string = String(n)): DatabaseConfig {
  if (provider === "sqlite") {
    const file = path.join(OUT_DIR, `browser-${kind}${TAG ? `-${TAG}` : ""}.db`);
    return { provider, file, url: `file:${file}` };
  }
  const url = new URL(PG_ADMIN_URL);
  // A tag leads the name (reterm_<tag>_…), so each checkout's databases share its prefix on the shared server.
  url.pathname = TAG ? `/reterm_${TAG}_bench_browser_${kind}` : `/reterm_bench_browser_${kind}`;
  return { provider, url: url.toString() };
}

async function ensurePgDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}

const log = (msg: string) => console.log(`[setup] ${msg}`);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

/** Labels on ~3% of trajectories by three annotators, and two datasets whose latest versions hold 5,000 items each. */
async function addCurationData(db: Db): Promise<void> {
  const users = await Promise.all(["ann-a", "ann-b", "ann-c"].map((u) => ensureUser(db, u, "annotator")));
  const schema = await db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
  const ids = (await db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
  const labelled = ids.filter((_, i) => i % 33 === 0);
  for (let i = 0; i < labelled.length; i += 500) {
    const data = labelled.slice(i, i + 500).flatMap((trajectoryId, j) =>
      users.slice(0, 1 + (j % 3)).map((u) => ({
        schemaId: schema.id,
        annotatorId: u.id,
        targetType: "trajectory",
        targetKey: `traj:${trajectoryId}`,
        trajectoryId,
        value: "command-error",
      })),
    );
    await db.annotation.createMany({ data });
  }
  for (const [d, name] of ["recovery-sft-v1", "hard-failures"].entries()) {
    const ds = await db.dataset.create({ data: { name, createdById: users[0]!.id } });
    for (const version of [1, 2]) {
      const items = ids.filter((_, i) => (i + d * 7 + version) % Math.max(1, Math.floor(ids.length / 5000)) === 0).slice(0, 5000);
      const v = await db.datasetVersion.create({
        data: { datasetId: ds.id, version, contentHash: `${name}-${version}`, itemCount: items.length, createdById: users[0]!.id },
      });
      for (let i = 0; i < items.length; i += 1000) {
        await db.datasetItem.createMany({
          data: items
            .slice(i, i + 1000)
            .map((trajectoryId, k) => ({ datasetVersionId: v.id, position: i + k, trajectoryId, kind: "trajectory" })),
        });
      }
    }
  }
  log(`curation data: ${labelled.length} labelled trajectories, 2 datasets`);
}

/** Logs import progress about every 5 % (a 10^6 build runs for hours on a loaded machine; the log says how far it got). */
function progress(n: number): (r: { imported: number }) => void {
  const t0 = performance.now();
  let next = Math.ceil(n / 20);
  return (r) => {
    if (r.imported < next) return;
    next = r.imported + Math.ceil(n / 20);
    log(`  imported ${r.imported} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  };
}

/** Imports a benchmark database's trajectories (by default `n` generated ones), without the search index. */
export type Fill = (ctx: ServiceContext, n: number) => Promise<ImportReport | null>;

const generated: Fill = (ctx, n) =>
  // The search index is left to reindexSearch below: it builds the GIN index once over all rows, where indexing
  // during the import maintains it row by row (at 10^6 about an hour of the build).
  seedDemo(ctx, { count: n, seed: 1, indexSearch: false, onProgress: progress(n) });

/** A migrated database holding exactly `n` trajectories (generated, or what `fill` imports) with a complete search index. */
export async function prepareBenchDatabase(
  config: DatabaseConfig,
  n: number,
  opts: { searchIndex?: boolean; fill?: Fill; what?: string } = {},
): Promise<Db> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  if (config.provider === "postgresql") await ensurePgDatabase(new URL(config.url).pathname.slice(1));
  await setupDatabase(config);
  const db = createDb(config);
  const count = await db.trajectory.count();
  if (count !== n) {
    if (count > 0)
      throw new Error(`${config.provider}: benchmark database holds ${count} trajectories, expected ${n}; delete it and re-run`);
    const actor = await ensureUser(db, "bench", "admin");
    const report = await timed(`${config.provider}: import ${n} ${opts.what ?? "generated"} trajectories`, () =>
      (opts.fill ?? generated)({ db, actor }, n),
    );
    log(`${config.provider}: imported ${report?.imported ?? 0}, ${report?.steps ?? 0} steps, failed ${report?.failed ?? 0}`);
    await addCurationData(db);
  } else if ((await db.annotation.count()) === 0) {
    // A build interrupted after its import (e.g. during the search-index phase) resumes here.
    await addCurationData(db);
  }
  if (opts.searchIndex !== false && (await searchIndexLag(db)) > 0) {
    await timed(`${config.provider}: build search index (reindexSearch)`, () =>
      reindexSearch(db, { onProgress: (k) => k % 10_000 < 500 && log(`  indexed ${k}`) }),
    );
  }
  if (config.provider === "postgresql") await db.$executeRawUnsafe("VACUUM ANALYZE");
  else await db.$executeRawUnsafe("ANALYZE");
  return db;
}

if (import.meta.filename === process.argv[1]) {
  const n = Number(process.argv[2] ?? 100_000);
  for (const provider of ["sqlite", "postgresql"] as const) {
    if (process.argv.includes(`--skip-${provider === "sqlite" ? "sqlite" : "pg"}`)) continue;
    const db = await prepareBenchDatabase(benchConfig(provider, n), n);
    await db.$disconnect();
  }
}
