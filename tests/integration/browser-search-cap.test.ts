// A search page stops early. Its count is capped (a lower bound past the cap, "More than 1,000" in the
// table), the next page is known without the total, and a very common word is checked per candidate in list order
// ("probe") instead of reading all its hits. Both ways of evaluating a search must select exactly the same
// trajectories; paging through a capped search must list every match once. Both databases; expectations come from
// the generated data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/test-db.ts";
import { seedDemo } from "../../lib/services/system/seed-demo.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";
import { getTrajectoryFacets, listTrajectories } from "../../lib/services/browse/browse-trajectories.ts";
import { ensureSearchIndex } from "../../lib/services/browse/search-trajectories.ts";
import { dialectOf } from "../../lib/db/dialect.ts";
import { createDb } from "../../lib/db/client.ts";
import {
  isCommonSearch,
  parseSearchQuery,
  searchCandidateEstimate,
  searchFilterSql,
  searchStepMatchesUpTo,
  searchVerifySql,
  type ParsedSearch,
  type SearchForm,
} from "../../lib/db/repositories/search/index.ts";
import { findMatchingTrajectoryIds, findTrajectoriesPage } from "../../lib/db/repositories/browse/trajectories.ts";
import { planSearch } from "../../lib/db/repositories/browse/search-plan.ts";
import { scopeOf } from "../../lib/db/repositories/browse/trajectory-filters.ts";
import { encodeCursor, trajectoryListQuerySchema } from "../../lib/validation/search-params/index.ts";
import { stripAnsi } from "../../lib/domain/ansi.ts";
import type { StepInput } from "../../lib/domain/trajectory.ts";

const SEED = { count: 90, seed: 7 };
const generated = [...generateTrajectories(SEED)];
const q = (input: Record<string, unknown>) => trajectoryListQuerySchema.parse(input);
const stepText = (s: StepInput) => stripAnsi([s.action, s.observation, s.reasoning, s.message].filter(Boolean).join("\n"));
// The index's tokens are runs of letters and digits, so a word is bounded by anything else.
const word = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}])${w}(?![\\p{L}\\p{N}])`, "iu");
const stepsWith = (re: RegExp) => generated.reduce((n, g) => n + g.steps.filter((s) => re.test(stepText(s))).length, 0);
const trajectoriesWith = (re: RegExp) => generated.filter((g) => g.steps.some((s) => re.test(stepText(s)))).length;
const parsed = (text: string): ParsedSearch => parseSearchQuery(text)!;

describe.each(PROVIDERS)("search pages that stop early on $title", ({ provider, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(provider);
    await seedDemo(t.ctx, SEED);
    await ensureSearchIndex(t.ctx);
    // PostgreSQL's word frequencies come from ANALYZE (autovacuum runs it in use).
    await t.db.$executeRawUnsafe(provider === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function idsWhere(s: ParsedSearch, form: SearchForm, confirmed = false): Promise<string[]> {
    const where = searchFilterSql(dialectOf(t.db), s, form);
    const verify = confirmed ? searchVerifySql(dialectOf(t.db), s, "t") : null;
    const rows = verify
      ? await t.db.$queryRaw<{ id: string }[]>`SELECT t."id" FROM "Trajectory" t WHERE ${where} AND ${verify} ORDER BY t."id"`
      : await t.db.$queryRaw<{ id: string }[]>`SELECT t."id" FROM "Trajectory" t WHERE ${where} ORDER BY t."id"`;
    return rows.map((r) => r.id);
  }

  it.skipIf(skip)("tells a word in most trajectories from a rare one, and never guesses for phrases or prefixes", async () => {
    expect(stepsWith(word("pytest"))).toBeGreaterThanOrEqual(generated.length);
    expect(stepsWith(word("modulenotfounderror"))).toBeLessThan(generated.length / 2);
    expect(await isCommonSearch(t.db, parsed("pytest"))).toBe(true);
    expect(await isCommonSearch(t.db, parsed("ModuleNotFoundError"))).toBe(false);
    // Every word must be common: one rare word makes the query rare.
    expect(await isCommonSearch(t.db, parsed("pytest ModuleNotFoundError"))).toBe(false);
    expect(await isCommonSearch(t.db, parsed('"pytest"'))).toBe(true);
    expect(await isCommonSearch(t.db, parsed('"python3 -m pytest"'))).toBe(false);
    expect(await isCommonSearch(t.db, parsed("pyte*"))).toBe(false);
    expect(await isCommonSearch(t.db, parsed("zzzqqq"))).toBe(false);
  });

  it.skipIf(skip).each(["pytest", "pytest error", "cat py", '"no module named"', "pip install", "modul*", "ModuleNotFoundError"])(
    "probing and reading hits select the same trajectories for %s",
    async (text) => {
      const s = parsed(text);
      const hits = await idsWhere(s, "hits");
      expect(await idsWhere(s, "probe")).toEqual(hits);
      if (text === "pytest") expect(hits).toHaveLength(trajectoriesWith(word("pytest")));
      // Candidates hold every match; confirmed one by one, exactly the matches.
      const verify = searchVerifySql(dialectOf(t.db), s, "t");
      const candidates = await idsWhere(s, "candidates");
      expect(candidates).toEqual(expect.arrayContaining(hits));
      expect(await idsWhere(s, "candidates", true)).toEqual(hits);
      expect(await idsWhere(s, "candidateProbe", true)).toEqual(hits);
      // PostgreSQL's candidates are trajectories holding all the words: exact for one word, a superset otherwise.
      if (provider === "postgresql") expect(verify === null).toBe(s.terms.length === 1 && s.terms[0]!.tokens.length === 1);
      if (verify === null) expect(candidates).toEqual(hits);
    },
  );

  it.skipIf(skip || provider !== "postgresql")(
    "narrows words that must share a step to trajectories holding them, then confirms",
    async () => {
      // Both words occur in trajectories where no single step holds both: the candidates are more than the matches.
      const s = parsed("cat py");
      const hits = await idsWhere(s, "hits");
      expect(hits.length).toBeGreaterThan(0);
      const candidates = (await idsWhere(s, "candidates")).length;
      expect(candidates).toBeGreaterThan(hits.length);
      // The planner's estimate is the rarest word's count from ANALYZE: never below the trajectories holding both words.
      expect(await searchCandidateEstimate(t.db, s)).toBeGreaterThanOrEqual(candidates - 0.5);
      expect(await searchCandidateEstimate(t.db, parsed('"zzzqqq cat"'))).toBe(0);
    },
  );

  it.skipIf(skip)("counts a query's matching steps up to a limit", async () => {
    const steps = stepsWith(/(?<![\p{L}\p{N}])module[^\p{L}\p{N}]+named(?![\p{L}\p{N}])/iu);
    expect(steps).toBeGreaterThan(3);
    expect(await searchStepMatchesUpTo(t.db, parsed('"module named"'), 3, null)).toBe(3);
    expect(await searchStepMatchesUpTo(t.db, parsed('"module named"'), 100_000, null)).toBe(steps);
    expect(await searchStepMatchesUpTo(t.db, parsed('"named pytest"'), 100_000, null)).toBe(0);
    expect(await searchStepMatchesUpTo(t.db, parsed("ModuleNotFoundError"), 100_000, 1_000)).toBe(stepsWith(word("modulenotfounderror")));
  });

  // `"named pytest"` at 10^6: both words in 42,910 trajectories, the phrase in no step. Counting its steps first
  // reads them as a set, where walking the candidates confirmed every one of them.
  it.skipIf(skip || provider !== "postgresql")(
    "a phrase whose words many trajectories hold reads its steps as a set when few steps hold the phrase",
    async () => {
      const phrase = (a: string, b: string) => new RegExp(`(?<![\\p{L}\\p{N}])${a}[^\\p{L}\\p{N}]+${b}(?![\\p{L}\\p{N}])`, "iu");
      expect(trajectoriesWith(word("named"))).toBeGreaterThan(1);
      expect(trajectoriesWith(word("pytest"))).toBeGreaterThan(1);
      expect(stepsWith(phrase("named", "pytest"))).toBe(0);
      expect(stepsWith(phrase("module", "named"))).toBeGreaterThan(1);
      const pages = async (text: string, many: number) =>
        (await planSearch(t.db, { ...scopeOf(t.db, t.ctx.actor.id, parsed(text)), searchForm: "hits" }, many)).map((a) => a.plan.page);
      // With many from 2 on: both phrases have that many candidates; only the second is in that many steps.
      expect(await searchCandidateEstimate(t.db, parsed('"named pytest"'))).toBeGreaterThanOrEqual(2);
      expect(await pages('"named pytest"', 2)).toEqual(["hitSet"]);
      expect(await pages('"module named"', 2)).toEqual(["candidateProbe", "hitSet"]);
      for (const text of ['"named pytest"', '"module named"']) {
        const p = await findTrajectoriesPage(t.db, q({ q: text, perPage: 5 }), t.ctx.actor.id, parsed(text), undefined, undefined, 2);
        expect(p.searchStopped).toBeFalsy();
        const want = trajectoriesWith(text === '"named pytest"' ? phrase("named", "pytest") : phrase("module", "named"));
        expect(p.rows.length).toBe(Math.min(5, want));
        if (!p.totalCapped) expect(p.total).toBe(want);
      }
    },
  );

  // A phrase whose check outlives every budget (at 10^6: common words sharing millions of steps) is reported as
  // stopped, with no rows, rather than failing the page or passing for "no matches". Here the step rows are locked
  // away from the search, so each statement waits until its budget cancels it.
  it.skipIf(skip || provider !== "postgresql")(
    "reports a search that ran out of its budgets as stopped, not as no matches",
    async () => {
      const search = { q: "cat py", perPage: 5 };
      // On a client of its own: the test database's pool may be a single connection.
      const other = createDb(t.config);
      let release = () => {};
      const released = new Promise<void>((r) => (release = r));
      let locked = () => {};
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = other.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`LOCK TABLE "step_search" IN ACCESS EXCLUSIVE MODE`);
          locked();
          await released;
        },
        { timeout: 30_000 },
      );
      await isLocked;
      try {
        // The step rows stay locked until the end: only the budgets can end these reads (without them, the test times out).
        for (const many of [1, 10_000]) {
          const p = await findTrajectoriesPage(t.db, q(search), t.ctx.actor.id, parsed(search.q), undefined, undefined, many);
          expect(p).toMatchObject({ rows: [], total: 0, searchStopped: true });
        }
        const listed = await listTrajectories(t.ctx, q(search));
        expect(listed.search).toMatchObject({ searchable: true, stopped: true });
        // The facets of the search are not counted either, and say so (null), within their own budget.
        expect(await getTrajectoryFacets(t.ctx, q(search))).toBeNull();
        // "Select all" for it ends at its budget with a clear refusal, not a transaction timeout or an endless wait.
        await expect(findMatchingTrajectoryIds(t.db, q(search), t.ctx.actor.id, parsed(search.q), 100, 500)).rejects.toMatchObject({
          code: "UNPROCESSABLE",
          message: expect.stringMatching(/stopped after .* Add a filter/),
        });
      } finally {
        release();
        await holder;
        await other.$disconnect();
      }
      const listed = await listTrajectories(t.ctx, q(search));
      expect(listed.search).toMatchObject({ stopped: false });
      expect(listed.rows.length).toBeGreaterThan(0);
      expect((await getTrajectoryFacets(t.ctx, q(search)))?.outcome.length).toBeGreaterThan(0);
    },
    40_000,
  );

  // "cat py" (two words in one step) both ways on PostgreSQL: few candidates read their steps' hits; many (here: from
  // one on) are walked in list order and confirmed one by one.
  it.skipIf(skip).each([
    ["pytest", undefined],
    ["cat py", 10_000],
    ["cat py", 1],
  ] as const)(
    "pages through a capped search for %s (many candidates from %s) to every match exactly once, forwards and back",
    async (text, many) => {
      const s = parsed(text);
      const cap = 10;
      const base = { q: text, perPage: 7, sort: "stepCount.desc" };
      const all = (await findMatchingTrajectoryIds(t.db, q(base), t.ctx.actor.id, s, 10_000)).ids;
      expect(all.length).toBeGreaterThan(cap + 7);
      const pages: string[][] = [];
      let cursor: string | undefined;
      for (let page = 1; ; page++) {
        const p = await findTrajectoriesPage(t.db, q({ ...base, page, cursor }), t.ctx.actor.id, s, undefined, cap, many);
        pages.push(p.rows.map((r) => r.id));
        const seen = pages.flat().length;
        if (p.nextCursor) {
          // More rows follow: the total is the rows seen so far or the cap, whichever is larger, and says so.
          expect(p).toMatchObject({ totalCapped: true, total: Math.max(cap, seen) });
          cursor = encodeCursor(p.nextCursor);
        } else {
          // The last page knows the exact total.
          expect(p).toMatchObject({ totalCapped: false, total: all.length });
          break;
        }
        expect(page).toBeLessThan(100);
      }
      expect(pages.flat()).toEqual(all);
      // Back from the last page by the "before" cursor: the page before it, and a next page is known to exist.
      const last = await findTrajectoriesPage(t.db, q({ ...base, page: pages.length, cursor }), t.ctx.actor.id, s, undefined, cap, many);
      const back = await findTrajectoriesPage(
        t.db,
        q({ ...base, page: pages.length - 1, cursor: encodeCursor(last.prevCursor!) }),
        t.ctx.actor.id,
        s,
        undefined,
        cap,
        many,
      );
      expect(back.rows.map((r) => r.id)).toEqual(pages.at(-2));
      expect(back.nextCursor).not.toBeNull();
    },
  );

  it.skipIf(skip)("counts a search under the cap exactly; without a search the count is never capped", async () => {
    const rare = trajectoriesWith(word("modulenotfounderror"));
    expect(rare).toBeGreaterThan(0);
    const p = await findTrajectoriesPage(
      t.db,
      q({ q: "ModuleNotFoundError", perPage: 5 }),
      t.ctx.actor.id,
      parsed("ModuleNotFoundError"),
      undefined,
      1000,
    );
    expect(p).toMatchObject({ total: rare, totalCapped: false });
    // A phrase (on PostgreSQL: candidates confirmed one by one) is counted exactly too.
    const phrase = trajectoriesWith(/(?<![\p{L}\p{N}])no[^\p{L}\p{N}]+module[^\p{L}\p{N}]+named(?![\p{L}\p{N}])/iu);
    expect(phrase).toBeGreaterThan(5);
    const pp = await findTrajectoriesPage(
      t.db,
      q({ q: '"no module named"', perPage: 5 }),
      t.ctx.actor.id,
      parsed('"no module named"'),
      undefined,
      1000,
    );
    expect(pp).toMatchObject({ total: phrase, totalCapped: false });
    expect(pp.rows).toHaveLength(5);
    const list = await listTrajectories(t.ctx, q({ q: "pytest", perPage: 5 }));
    expect(list).toMatchObject({
      total: trajectoriesWith(word("pytest")),
      totalCapped: false,
      pageCount: Math.ceil(trajectoriesWith(word("pytest")) / 5),
    });
    // Without a search the count is exact whatever its size (and the page count is the real one).
    const plain = await listTrajectories(t.ctx, q({ perPage: 5 }));
    expect(plain).toMatchObject({ total: generated.length, totalCapped: false, pageCount: Math.ceil(generated.length / 5) });
    // The probe form keeps filters: it is one predicate among the others.
    const failed = await listTrajectories(t.ctx, q({ q: "pytest", outcome: "failed", perPage: 100 }));
    const want = generated.filter((g) => g.outcome === "failed" && g.steps.some((st) => word("pytest").test(stepText(st)))).length;
    expect(failed.rows).toHaveLength(want);
  });
});
