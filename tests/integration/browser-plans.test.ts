// Query plans of the browser's queries, on both databases: none of them may read the whole Trajectory table where an
// index can serve (facet counts, filtered and multi-sorted pages, deep keyset pages, counts, "select all"). At this
// size the planner would often pick a scan anyway, so PostgreSQL is asked with sequential scans discouraged: the test
// proves an index plan exists; bench/browser.ts --explain shows the plans chosen at 10^5 rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { getTrajectoryFacets, listTrajectories, selectMatchingTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";
import { createLoggedDb, explain, fullTableScans, readStatements, type LoggedStatement } from "../../lib/db/diagnostics/query-plans.ts";
import type { Db } from "../../lib/db/client.ts";
import type { ServiceContext } from "../../lib/services/context.ts";

const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);

describe.each(PROVIDERS)("browser query plans on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  let logged: { db: Db; log: LoggedStatement[] };
  let ctx: ServiceContext;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, { count: 120, seed: 5 });
    // VACUUM sets PostgreSQL's visibility map, without which no index-only scan is planned (autovacuum does it in use).
    await t.db.$executeRawUnsafe(provider === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
    logged = createLoggedDb(t.config);
    ctx = { db: logged.db, actor: t.ctx.actor };
  });
  afterAll(async () => {
    await logged?.db.$disconnect();
    await t?.drop();
  });

  async function plansOf(call: () => Promise<unknown>): Promise<{ sql: string; plan: string[] }[]> {
    logged.log.length = 0;
    await call();
    const statements = readStatements(logged.log).filter((s) => /"Trajectory"/.test(s.sql));
    expect(statements.length).toBeGreaterThan(0);
    return Promise.all(statements.map(async (s) => ({ sql: s.sql, plan: await explain(t.db, s, { discourageSeqScan: true }) })));
  }

  const scenarios: [string, (c: ServiceContext) => Promise<unknown>][] = [
    ["first page", (c) => listTrajectories(c, q({}))],
    [
      "filtered + multi-sorted page",
      (c) => listTrajectories(c, q({ outcome: "failed", steps: "5..40", sort: "reward.desc,stepCount.asc" })),
    ],
    ["facet counts, no filter", (c) => getTrajectoryFacets(c, q({}))],
    ["facet counts, outcome=failed", (c) => getTrajectoryFacets(c, q({ outcome: "failed", forks: "no" }))],
    ["select all matching", (c) => selectMatchingTrajectories(c, q({ outcome: "failed" }))],
    // A word in most trajectories is probed per candidate in list order; a rare one reads its hits.
    ["search page, a word in most trajectories", (c) => listTrajectories(c, q({ q: "pytest" }))],
    [
      "search page, a word in most trajectories + failed, multi-sorted",
      (c) => listTrajectories(c, q({ q: "pytest", outcome: "failed", sort: "reward.desc,stepCount.asc" })),
    ],
    ["search page, a rare word", (c) => listTrajectories(c, q({ q: "ModuleNotFoundError" }))],
  ];

  it.skipIf(skip).each(scenarios)("%s: no full scan of the Trajectory table", async (_name, call) => {
    for (const { sql, plan } of await plansOf(() => call(ctx))) {
      if (process.env.PLAN_DEBUG) console.log(`${provider} ${_name}\n${sql.slice(0, 200)}\n${plan.join("\n")}\n`);
      expect(fullTableScans(plan, sql), `${sql.slice(0, 300)}\n${plan.join("\n")}`).toEqual([]);
    }
  });

  // A scan of step_search_doc tests every row's word set, a cost the planner leaves out: for a word in every
  // trajectory it scanned them all for the capped count (search-plan.ts, HITS_PLAN).
  it.skipIf(skip || provider !== "postgresql")(
    "a word's hits are read for its page and count with sequential scans priced out",
    async () => {
      logged.log.length = 0;
      await listTrajectories(ctx, q({ q: "ModuleNotFoundError" }));
      const sqls = readStatements(logged.log).map((s) => s.sql);
      const at = sqls.findIndex((s) => s.includes("set_config('enable_seqscan', 'off', true)"));
      expect(at, sqls.join("\n")).toBeGreaterThanOrEqual(0);
      expect(sqls[at + 1]).toMatch(/^SELECT COUNT\(\*\) AS "c"/);
      expect(sqls[at + 2]).toMatch(/"step_search_doc"/);
    },
  );

  it.skipIf(skip)("flags a full scan when one happens (the check can fail)", async () => {
    const sql = `SELECT COUNT(*) FROM "Trajectory" t WHERE t."verifierOutput" LIKE '%x%'`;
    expect(fullTableScans(await explain(t.db, { sql, params: [] }, { discourageSeqScan: true }), sql)).toHaveLength(1);
    // The same statement the facet counts send, without the index that serves it.
    const facetSql = `SELECT t."outcome", t."firstErrorCategory", COUNT(*) AS "c", MAX(t."durationMs") FROM "Trajectory" t GROUP BY 1, 2`;
    expect(fullTableScans(await explain(t.db, { sql: facetSql, params: [] }, { discourageSeqScan: true }), facetSql)).toEqual([]);
    await t.db.$executeRawUnsafe(`DROP INDEX "Trajectory_browse_idx"`);
    try {
      expect(fullTableScans(await explain(t.db, { sql: facetSql, params: [] }, { discourageSeqScan: true }), facetSql)).toHaveLength(1);
    } finally {
      await t.db.$executeRawUnsafe(
        `CREATE INDEX "Trajectory_browse_idx" ON "Trajectory"("outcome", "runId", "taskId", "firstErrorCategory", "forkPointCount", "parentId", "reward", "stepCount", "durationMs", "importedAt", "warningCount", "forkPointId", "firstErrorStep", "id")`,
      );
    }
  });

  // At 10^5 trajectories whose labels were all on trajectories, SQLite's statistics saw one forkPointId (NULL) in every
  // Annotation row and looked each fork point's label up by scanning every error-category label: 26 s per facet request.
  it.skipIf(skip)(
    "fork-category facet: each fork point's label is looked up by the Annotation(forkPointId) index when no label is on a fork point",
    async () => {
      const schema = await t.db.labelSchema.findUniqueOrThrow({ where: { key: "error-category" } });
      const roots = await t.db.trajectory.findMany({ where: { parentId: null }, select: { id: true }, take: 60 });
      await t.db.annotation.createMany({
        data: roots.map((r) => ({
          schemaId: schema.id,
          annotatorId: t.ctx.actor.id,
          targetType: "trajectory",
          targetKey: `traj:${r.id}`,
          trajectoryId: r.id,
          value: "command-error",
        })),
      });
      await t.db.$executeRawUnsafe("ANALYZE");
      try {
        logged.log.length = 0;
        await getTrajectoryFacets(ctx, q({ outcome: "failed" }));
        const forkFacet = readStatements(logged.log).find((s) => /"ForkPoint" fp/.test(s.sql) && /"Annotation" la/.test(s.sql));
        expect(forkFacet, "the fork-category facet statement").toBeDefined();
        // PostgreSQL is asked with sequential scans discouraged (at this size it would scan the tiny table).
        const plan = (await explain(t.db, forkFacet!, { discourageSeqScan: true })).join("\n");
        expect(plan).toMatch(/Annotation_forkPointId_idx/);
      } finally {
        await t.db.annotation.deleteMany({
          where: { trajectoryId: { in: roots.map((r) => r.id) }, schemaId: schema.id, annotatorId: t.ctx.actor.id },
        });
      }
    },
  );

  it.skipIf(skip)("a deep page by keyset walks an index, whatever the depth", async () => {
    const first = await listTrajectories(ctx, q({ perPage: 10 }));
    const plans = await plansOf(() => listTrajectories(ctx, q({ perPage: 10, page: 2, cursor: first.nextCursor })));
    for (const { sql, plan } of plans) expect(fullTableScans(plan, sql), plan.join("\n")).toEqual([]);
  });
});
