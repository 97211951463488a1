// Trajectory-browser query benchmark on SQLite and PostgreSQL. Usage:
//   tsx bench/browser.ts [trajectories=100000] [--runs=30] [--skip-pg] [--skip-sqlite] [--only=<part of a query name>] [--explain] [--as-is]
// Data: BENCH_OUT (default /tmp/reterm-bench) holds the SQLite file; BENCH_TAG suffixes the file and PG database names.
// Builds (or reuses) bench/out/browser-<n>.db and the PostgreSQL database reterm_bench_browser_<n> (bench/browser-setup.ts),
// then times each browser query through the app's service layer (zod-parsed query → service → repository → Prisma →
// DTOs) and, in the same run and interleaved with it, the exact SQL statements that call issued (captured from
// Prisma's query log) replayed through the raw driver (better-sqlite3 / pg). Prints median and p95 of each, and
// their ratio (app overhead).
import fs from "node:fs";
import os from "node:os";
import Database from "better-sqlite3";
import pg from "pg";
import { z } from "zod";
import { createLoggedDb, explain, fullTableScans, readStatements, type LoggedStatement } from "../lib/db/diagnostics/query-plans.ts";
import type { DatabaseConfig } from "../lib/env.ts";
import type { ServiceContext } from "../lib/services/context.ts";
import { ensureUser } from "../lib/db/repositories/accounts/users.ts";
import { getTrajectoryFacets, listTrajectories, selectMatchingTrajectories } from "../lib/services/browse/browse-trajectories.ts";
import { searchSteps } from "../lib/services/browse/search-trajectories.ts";
import { trajectoryListQuerySchema } from "../lib/validation/search-params/index.ts";
import { benchConfig, prepareBenchDatabase } from "./browser-setup.ts";
import { setupDatabase } from "../lib/services/system/setup-database.ts";
import { createDb } from "../lib/db/client.ts";
import { dialectOf } from "../lib/db/dialect.ts";
import { parseSearchQuery, searchFilterSql, searchIndexLag } from "../lib/db/repositories/search/index.ts";

const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 30);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
// --explain: print each query's plan as the database chooses it at this size, and flag full scans of Trajectory.
const explainPlans = process.argv.includes("--explain");
// --skip-search: leave out the search queries (and the search-index build they need).
const skipSearch = process.argv.includes("--skip-search");
// --partial-search: run the search queries over whatever part of the search index is built (no rebuild); the run
// prints how many trajectories the index holds. For a loaded machine where indexing 10^5 does not fit the session.
const partialSearch = process.argv.includes("--partial-search");
// --as-is: measure the database as it stands (migrated, but not built, completed, indexed or vacuumed here): for a
// build still running in another process.
const asIs = process.argv.includes("--as-is");
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);

type Statement = LoggedStatement;
interface RawRunner {
  run(statements: Statement[], inTransaction: boolean): Promise<void>;
  /** CPU time (ms) of the database server process serving this runner, when it is a separate process. */
  cpuMs?(): number;
  /** How many replayed statements the database cancelled at their budget so far (PostgreSQL). */
  cancelled?(): number;
  close(): Promise<void>;
}

async function rawRunner(config: DatabaseConfig): Promise<RawRunner> {
  if (config.provider === "sqlite") {
    const d = new Database(config.file, { readonly: true, fileMustExist: true });
    // The same page cache as the app's connection (lib/db/client.ts), so app / raw compares the same work.
    d.pragma("cache_size = -131072");
    // The app creates this per connection before reading word counts (repositories/search/sqlite.ts); the replay reads it too.
    d.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp."step_fts_vocab" USING fts5vocab(main, "step_fts", row)`);
    return {
      async run(statements, inTx) {
        if (inTx) d.exec("BEGIN");
        for (const s of statements) d.prepare(s.sql).all(...s.params);
        if (inTx) d.exec("COMMIT");
      },
      async close() {
        d.close();
      },
    };
  }
  // One dedicated connection, so its server process can be watched: its CPU time is the query's server cost.
  const client = new pg.Client({ connectionString: config.url, options: "-c jit=off" }); // as the app's (lib/db/client.ts)
  await client.connect();
  let cancelled = 0;
  const pid = z.coerce
    .number()
    .int()
    .parse((await client.query("SELECT pg_backend_pid() AS p")).rows[0].p);
  return {
    async run(statements, inTx) {
      if (inTx) await client.query("BEGIN");
      for (const s of statements) {
        try {
          await client.query(s.sql, s.params);
        } catch (e) {
          // A statement under a budget (statement_timeout: a search's facets, a walk in list order) that runs past it
          // here, as it may have or not in the app's call: timed up to the cancel, and the replay goes on in a fresh
          // transaction, as the app does after a budget runs out. Any other error is the bench's to report.
          if ((e as { code?: unknown }).code !== QUERY_CANCELED) throw e;
          cancelled++;
          if (inTx) await client.query("ROLLBACK; BEGIN");
        }
      }
      if (inTx) await client.query("COMMIT");
    },
    cancelled: () => cancelled,
    cpuMs() {
      // utime + stime of the backend, in clock ticks (100 per second on Linux).
      const fields = fs
        .readFileSync(`/proc/${pid}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async close() {
      await client.end();
    },
  };
}

const cancelledNote = (n: number) => (n ? `  (raw: ${n} statement${n === 1 ? "" : "s"} cancelled at the budget)` : "");

/** PostgreSQL's query_canceled, what a statement past its statement_timeout fails with. */
const QUERY_CANCELED = "57014";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** CPU time of this process (ms) spent in fn: for the in-process SQLite driver, the query's own cost, whatever the load. */
async function cpuTime(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

interface Scenario {
  name: string;
  target: number;
  run: (ctx: ServiceContext) => Promise<unknown>;
}

// The core group-bys of the facet counts with outcome=failed, as SQL: before the single-pass rewrite the catalog (run, task) and
// state (outcome, error, forks, attempt, warnings) facets were two passes, each leaving out its own filters.
const STATE_COLS = `t."outcome", t."firstErrorCategory", CASE WHEN t."forkPointCount" > 0 THEN 1 ELSE 0 END, CASE WHEN t."parentId" IS NOT NULL THEN 1 ELSE 0 END, CASE WHEN t."warningCount" > 0 THEN 1 ELSE 0 END`;
const AGGS = `COUNT(*), MIN(t."reward"), MAX(t."reward"), MIN(t."stepCount"), MAX(t."stepCount"), MIN(t."durationMs"), MAX(t."durationMs")`;
async function twoPassFacets(ctx: ServiceContext, outcome: string): Promise<unknown> {
  // Tagged, so each database gets its own placeholder ($1 is a named parameter to SQLite).
  const catalog = await ctx.db
    .$queryRaw`SELECT t."runId", t."taskId", COUNT(*) FROM "Trajectory" t WHERE t."outcome" IN (${outcome}) GROUP BY t."runId", t."taskId"`;
  const state = await ctx.db.$queryRawUnsafe(`SELECT ${STATE_COLS}, ${AGGS} FROM "Trajectory" t GROUP BY 1, 2, 3, 4, 5`);
  return [catalog, state];
}
async function onePassFacets(ctx: ServiceContext): Promise<unknown> {
  // The outcome filter is applied per group in JS (facets.ts), so the one pass reads every row, like the state pass did.
  return ctx.db.$queryRawUnsafe(
    `SELECT t."runId", t."taskId", ${STATE_COLS}, ${AGGS} FROM "Trajectory" t GROUP BY t."outcome", t."runId", t."taskId", t."firstErrorCategory", 5, 6, 7`,
  );
}

// Grouped by the browse index's four leading columns only, with the forks / attempt / warnings
// facets counted inside each group (no state filter set: COUNT(*) and three sums), so the groups stream in index
// order without a sort.
const STATE_SUMS = [`t."forkPointCount" > 0`, `t."parentId" IS NOT NULL`, `t."warningCount" > 0`]
  .map((b) => `SUM(CASE WHEN ${b} THEN 1 ELSE 0 END)`)
  .join(", ");
async function prefixFacets(ctx: ServiceContext): Promise<unknown> {
  return ctx.db.$queryRawUnsafe(
    `SELECT t."outcome", t."runId", t."taskId", t."firstErrorCategory", ${AGGS}, ${STATE_SUMS}, MIN(t."firstErrorStep"), MAX(t."firstErrorStep") FROM "Trajectory" t GROUP BY t."outcome", t."runId", t."taskId", t."firstErrorCategory"`,
  );
}

// The label, dataset and "annotated" facets under outcome=failed: the three statements side by side, as facets.ts issues
// them, joined either to Trajectory by id (before MarkedTrajectory: one probe of a 10^6-entry index per annotation or
// item) or to MarkedTrajectory's cell keys (now). Raw SQL, so both run in the same process against the same database.
async function markFacets(ctx: ServiceContext, source: "Trajectory" | "MarkedTrajectory"): Promise<unknown> {
  const join = (alias: string) =>
    source === "Trajectory"
      ? ` JOIN "Trajectory" t ON t."id" = ${alias}."trajectoryId" WHERE t."outcome" = 'failed'`
      : ` JOIN "MarkedTrajectory" c ON c."trajectoryId" = ${alias}."trajectoryId" WHERE c."outcome" = 'failed'`;
  return Promise.all([
    ctx.db.$queryRawUnsafe(`SELECT la."value", COUNT(DISTINCT la."trajectoryId") FROM "Annotation" la${join("la")}
      AND la."schemaId" IN (SELECT ls."id" FROM "LabelSchema" ls WHERE ls."key" = 'error-category') GROUP BY la."value"`),
    ctx.db.$queryRawUnsafe(`SELECT v."datasetId", COUNT(DISTINCT di."trajectoryId") FROM "DatasetItem" di
      JOIN "DatasetVersion" v ON v."id" = di."datasetVersionId"${join("di")}
      AND v."version" = (SELECT MAX(v2."version") FROM "DatasetVersion" v2 WHERE v2."datasetId" = v."datasetId") GROUP BY v."datasetId"`),
    ctx.db.$queryRawUnsafe(`SELECT COUNT(DISTINCT a."trajectoryId") FROM "Annotation" a${join("a")}`),
  ]);
}

async function countedIndexLag(ctx: ServiceContext): Promise<unknown> {
  return ctx.db
    .$queryRaw`SELECT (SELECT COUNT(*) FROM "Trajectory") AS "trajectories", (SELECT COUNT(*) FROM "step_search_doc") AS "indexed"`;
}

async function exactSearch(ctx: ServiceContext, text: string): Promise<unknown> {
  const where = searchFilterSql(dialectOf(ctx.db), parseSearchQuery(text)!, "hits");
  const count = await ctx.db.$queryRaw`SELECT COUNT(*) FROM "Trajectory" t WHERE ${where}`;
  const page = await ctx.db.$queryRaw`SELECT t."id" FROM "Trajectory" t WHERE ${where} ORDER BY t."importedAt" DESC, t."id" ASC LIMIT 25`;
  return [count, page];
}

async function scenarios(ctx: ServiceContext): Promise<Scenario[]> {
  const models = await ctx.db.run.groupBy({ by: ["model"], _count: { _all: true }, orderBy: { _count: { model: "desc" } } });
  const model = models[0]!.model!;
  // The keyset cursor that continues after row 50,000 of the default order.
  const before = await listTrajectories(ctx, q({ page: Math.floor(50_000 / 25), perPage: 25 }));
  const cursor = before.nextCursor ?? undefined;
  const filtered = { outcome: "failed", model, steps: "10..40", sort: "reward,stepCount", dir: "desc,asc" };
  // The commonest fork-point category: analytics' drill-down into the browser sets this filter, which no cell answers.
  // And the rarest, read as a set where the commonest walks the list order.
  const forkErrors = (await getTrajectoryFacets(ctx, q({})))!.forkError.filter((o) => o.count > 0);
  const forkError = forkErrors[0]!.value;
  const rareForkError = forkErrors.at(-1)!.value;
  return [
    { name: "first page (default sort)", target: 100, run: (c) => listTrajectories(c, q({})) },
    { name: "filtered + multi-sorted page", target: 100, run: (c) => listTrajectories(c, q(filtered)) },
    { name: "deep page, row 50,000 (keyset)", target: 100, run: (c) => listTrajectories(c, q({ page: 2001, cursor })) },
    { name: "deep page, row 50,000 (offset)", target: 100, run: (c) => listTrajectories(c, q({ page: 2001 })) },
    { name: "facet counts (outcome=failed)", target: 300, run: (c) => getTrajectoryFacets(c, q({ outcome: "failed" })) },
    { name: "facet counts (no filter)", target: 300, run: (c) => getTrajectoryFacets(c, q({})) },
    { name: `facet counts (forkError=${forkError})`, target: 300, run: (c) => getTrajectoryFacets(c, q({ forkError })) },
    { name: `page (forkError=${forkError})`, target: 100, run: (c) => listTrajectories(c, q({ forkError })) },
    {
      name: `page (forkError=${rareForkError}, the rarest)`,
      target: 100,
      run: (c) => listTrajectories(c, q({ forkError: rareForkError })),
    },
    { name: "facet counts: marks via Trajectory (before)", target: 300, run: (c) => markFacets(c, "Trajectory") },
    { name: "facet counts: marks via MarkedTrajectory", target: 300, run: (c) => markFacets(c, "MarkedTrajectory") },
    // The two group-bys the facets issued before they became one pass.
    { name: "facet group-bys, 2 passes (before 15)", target: 300, run: (c) => twoPassFacets(c, "failed") },
    { name: "facet group-by, 1 pass (after 15)", target: 300, run: (c) => onePassFacets(c) },
    { name: "facet group-by, index prefix (15, third pass)", target: 300, run: (c) => prefixFacets(c) },
    { name: "search: table, q=ModuleNotFoundError", target: 300, run: (c) => listTrajectories(c, q({ q: "ModuleNotFoundError" })) },
    {
      name: 'search: table, q="no module named" + failed',
      target: 300,
      run: (c) => listTrajectories(c, q({ q: '"no module named"', outcome: "failed" })),
    },
    { name: "search: table, q=pip install (one step)", target: 300, run: (c) => listTrajectories(c, q({ q: "pip install" })) },
    // Two common words that no step holds side by side: the narrowing runs out of its budget, then the set answers.
    { name: 'search: table, q="named pytest" (in no step)', target: 300, run: (c) => listTrajectories(c, q({ q: '"named pytest"' })) },
    { name: "search: steps API, q=pip install", target: 300, run: (c) => searchSteps(c, { q: "pip install", limit: 20 }) },
    // Every search first checks the index is complete: from the kept counts now, by counting both tables before.
    { name: "search: index lag check", target: 300, run: (c) => searchIndexLag(c.db) },
    { name: "search: index lag, counting the tables (before)", target: 300, run: (c) => countedIndexLag(c) },
    // The search page renders its facets beside the table: counted over every match, not a page.
    { name: "search: facets, q=ModuleNotFoundError", target: 300, run: (c) => getTrajectoryFacets(c, q({ q: "ModuleNotFoundError" })) },
    {
      name: 'search: facets, q="no module named" + failed',
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: '"no module named"', outcome: "failed" })),
    },
    { name: "search: facets, q=pytest (very common)", target: 300, run: (c) => getTrajectoryFacets(c, q({ q: "pytest" })) },
    // The same facets read in one statement, as before the marks' facets had a statement of their own.
    {
      name: "search: facets, q=ModuleNotFoundError (one statement)",
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: "ModuleNotFoundError" }), "index-one-statement"),
    },
    {
      name: 'search: facets, q="no module named" + failed (one statement)',
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: '"no module named"', outcome: "failed" }), "index-one-statement"),
    },
    // The same facets with the index rows read again by each facet's statement, as before they were read once for all.
    {
      name: "search: facets, q=ModuleNotFoundError (per statement)",
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: "ModuleNotFoundError" }), "index-per-statement"),
    },
    // The same facets with the matches' keys looked up in Trajectory, as before the index rows carried them.
    {
      name: "search: facets, q=ModuleNotFoundError (before)",
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: "ModuleNotFoundError" }), "trajectory"),
    },
    {
      name: 'search: facets, q="no module named" + failed (before)',
      target: 300,
      run: (c) => getTrajectoryFacets(c, q({ q: '"no module named"', outcome: "failed" }), "trajectory"),
    },
    { name: "search: facets, q=pytest (before)", target: 300, run: (c) => getTrajectoryFacets(c, q({ q: "pytest" }), "trajectory") },
    { name: "search: table, q=pytest (very common)", target: 300, run: (c) => listTrajectories(c, q({ q: "pytest" })) },
    // What the table ran for a search before — an exact count and the first page,
    // both reading every hit of the word.
    { name: "search: pytest, exact count + hits (before 15)", target: 300, run: (c) => exactSearch(c, "pytest") },
    { name: "select all matching ids (failed)", target: 300, run: (c) => selectMatchingTrajectories(c, q({ outcome: "failed" })) },
  ];
}

async function benchProvider(provider: DatabaseConfig["provider"]): Promise<void> {
  const config = benchConfig(provider, n);
  if (asIs) await setupDatabase(config);
  const setupDb = asIs ? createDb(config) : await prepareBenchDatabase(config, n, { searchIndex: !skipSearch && !partialSearch });
  if (partialSearch)
    console.log(
      `\n${provider}: search index holds ${await setupDb.$queryRawUnsafe<{ c: bigint }[]>(`SELECT COUNT(*) AS c FROM "step_search_doc"`).then((r) => Number(r[0]!.c))} trajectories (--partial-search)`,
    );
  await setupDb.$disconnect();
  const { db, log } = createLoggedDb(config);
  const actor = await ensureUser(db, "ann-a", "annotator");
  const ctx: ServiceContext = { db, actor };
  const raw = await rawRunner(config);
  const size =
    config.provider === "sqlite"
      ? fs.statSync(config.file).size
      : Number((await db.$queryRawUnsafe<{ s: bigint }[]>("SELECT pg_database_size(current_database()) AS s"))[0]!.s);
  // Cache size decides most 10^6 figures on PostgreSQL (a page read from the OS cache costs far more than a hit).
  const settings =
    config.provider === "sqlite"
      ? ""
      : `, ${(
          await db.$queryRawUnsafe<{ name: string; setting: string }[]>(
            `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'effective_cache_size') ORDER BY name`,
          )
        )
          .map((r) => `${r.name} ${r.setting}`)
          .join(", ")}`;
  console.log(
    `\n${provider}: ${n.toLocaleString("en-US")} trajectories, ${await db.step.count()} steps, database ${(size / 2 ** 30).toFixed(2)} GiB${settings}, ${runs} runs each`,
  );
  console.log(
    `${"query".padEnd(46)} ${"app p50".padStart(7)} ${"app p95".padStart(7)} ${"raw p50".padStart(7)} ${"raw p95".padStart(7)}  ratio  target  stmts  raw CPU p50`,
  );
  for (const s of (await scenarios(ctx)).filter((x) => (!only || x.name.includes(only)) && !(skipSearch && x.name.startsWith("search")))) {
    for (let i = 0; i < 3; i++) await s.run(ctx);
    log.length = 0;
    await s.run(ctx);
    const captured = [...log];
    const inTx = captured.some((x) => x.sql === "COMMIT");
    // Reads only: a search call may also catch up the search index (INSERTs), which must not be replayed.
    const statements = readStatements(captured);
    const cancelledBefore = raw.cancelled?.() ?? 0;
    for (let i = 0; i < 3; i++) await raw.run(statements, inTx);
    const app: number[] = [];
    const rawTimes: number[] = [];
    const rawCpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      app.push(await time(() => s.run(ctx)));
      rawTimes.push(await time(() => raw.run(statements, inTx)));
      if (provider === "sqlite") rawCpu.push(await cpuTime(() => raw.run(statements, inTx)));
      else if (raw.cpuMs) {
        const c0 = raw.cpuMs();
        await raw.run(statements, inTx);
        rawCpu.push(raw.cpuMs() - c0);
      }
    }
    const ratio = pct(app, 50) / pct(rawTimes, 50);
    const ok = pct(app, 95) <= s.target ? "ok" : "MISS";
    if (explainPlans) {
      for (const st of readStatements(statements)) {
        const plan = await explain(db, st);
        const scans = fullTableScans(plan, st.sql);
        console.log(
          `  ${st.sql.replace(/\s+/g, " ").slice(0, 160)}…\n${plan.map((l) => `    ${l}`).join("\n")}${scans.length ? `\n    ^ FULL SCAN of Trajectory: ${scans.length}` : ""}`,
        );
      }
    }
    console.log(
      `${s.name.padEnd(46)} ${fmt(pct(app, 50))} ${fmt(pct(app, 95))} ${fmt(pct(rawTimes, 50))} ${fmt(pct(rawTimes, 95))}  ${ratio.toFixed(2).padStart(5)}  ${`<${s.target} ${ok}`.padStart(8)}  ${String(statements.length).padStart(5)}${rawCpu.length ? `  ${fmt(pct(rawCpu, 50))}` : ""}${cancelledNote((raw.cancelled?.() ?? 0) - cancelledBefore)}`,
    );
  }
  await raw.close();
  await db.$disconnect();
}

console.log(
  `bench/browser.ts — ${os.cpus().length} cores, node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const provider of ["sqlite", "postgresql"] as const) {
  if (process.argv.includes(provider === "sqlite" ? "--skip-sqlite" : "--skip-pg")) continue;
  await benchProvider(provider);
}
console.log(
  `\nload at end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      " ",
    )}. Times in ms; ratio = app p50 / raw p50; raw CPU = CPU time of the raw run (SQLite: this process; PostgreSQL: the server backend, 10 ms ticks), unaffected by waiting for a core.`,
);
