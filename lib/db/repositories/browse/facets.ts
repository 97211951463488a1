// Facet counts for the trajectory browser: for each facet, how many trajectories each value would match given all
// the *other* active filters (the usual faceted-search rule, so picking a value never hides its siblings).
// Facets are computed from a few small grouped queries. One pass over the covering index Trajectory_browse_idx,
// GROUP BY its leading columns (outcome, run, task, error) with the has-forks / is-attempt / has-warnings split
// counted inside each group, serves the run, model, task, category, outcome, error, forks, attempt and warnings
// facets, the total and the range bounds: it leaves those nine dimensions' filters out of the SQL and applies them
// per group here, so every facet gets exactly "all filters but its own" without one query (or one table scan) per
// facet. The groups are few (a few thousand at 10^5-10^6 rows: the dimensions do not grow with the table), and
// grouping on the index's prefix streams them in index order without a sort (at 10^5 on SQLite, 162 ms
// with the three state columns in the GROUP BY, which sorted, against 40 ms for the prefix). When no other filter is
// set (no search, dates, ranges, labels…), the same groups are summed from the precomputed TrajectoryFacetCell rows
// (facet-cells.ts) instead: a few thousand cells rather than every trajectory.
import { z } from "zod";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { dialectOf, type Dialect, type Queryable } from "../../dialect.ts";
import { budgetedBatch, budgetedReader, isStatementTimeout, statementBudgetSql } from "../../statement-timeout.ts";
import { searchKeyedMatchSql, searchMatchRowsSql, type ParsedSearch } from "../search/index.ts";
import {
  filterConditions,
  labelScopeSql,
  LATEST_VERSION_SQL,
  scopeOf,
  searchOn,
  whereClause,
  type FilterScope,
  type Viewer,
} from "./trajectory-filters.ts";
import { forkCategorySql } from "../analytics/fork-category.ts";
import { CELL_BOUNDS, cellBoundSql, cellConditions, cellsAnswer, forkCategoryCounts } from "./facet-cells.ts";
import { forkErrorCellsSql, markForkErrorSql, type ForkErrorCells } from "./fork-error-cells.ts";
import {
  indexedMatches,
  joinHits,
  SEQ_SCANS_PRICED_OUT,
  sharedMatches,
  type KeyedMatches,
  type Read,
  type SharedMatches,
  type SharedTable,
} from "./search-matches.ts";
import { OUTCOMES } from "../../../domain/trajectory.ts";
import { NO_ERROR, type TrajectoryFilterKey, type TrajectoryListQuery } from "../../../validation/search-params/index.ts";

export interface FacetOption {
  value: string;
  label: string;
  detail?: string | null;
  count: number;
}
export interface RangeBounds {
  min: number | null;
  max: number | null;
}
export interface TrajectoryFacets {
  runId: FacetOption[];
  model: FacetOption[];
  taskId: FacetOption[];
  category: FacetOption[];
  outcome: FacetOption[];
  error: FacetOption[];
  datasetId: FacetOption[];
  /** Attempts by their fork point's error category. */
  forkError: FacetOption[];
  /** Trajectories per human error-category label value (blind annotators: their own labels). */
  label: FacetOption[];
  forks: FacetOption[];
  attempt: FacetOption[];
  annotated: FacetOption[];
  warnings: FacetOption[];
  reward: RangeBounds;
  steps: RangeBounds;
  /** Seconds, like the duration filter. */
  duration: RangeBounds;
  /** 0-based step of the first error. */
  firstErrorStep: RangeBounds;
}

const sql = Prisma.sql;
const num = z.union([z.number(), z.bigint()]).transform(Number);
const nnum = num.nullable();

const CATALOG = ["runId", "model", "taskId", "category"] as const satisfies readonly TrajectoryFilterKey[];
const GROUPED_STATE = ["outcome", "error"] as const satisfies readonly TrajectoryFilterKey[];
const STATE = [...GROUPED_STATE, "forks", "attempt", "warnings"] as const satisfies readonly TrajectoryFilterKey[];
const RANGES = ["reward", "steps", "duration", "firstErrorStep"] as const;

// The three yes/no state facets. They are not group columns of the one pass: each group counts them inside itself.
const STATE_DIMS = ["forks", "attempt", "warnings"] as const;
type StateDim = (typeof STATE_DIMS)[number];
const STATE_SQL: Record<StateDim, Prisma.Sql> = {
  forks: sql`t."forkPointCount" > 0`,
  attempt: sql`t."parentId" IS NOT NULL`,
  warnings: sql`t."warningCount" > 0`,
};
// Per group: the alias (rmin, smax…: the result's field), the aggregate, the Trajectory column and the
// TrajectoryFacetCell column holding it per cell.
const RANGE_AGGREGATES = CELL_BOUNDS.map(
  ([cellColumn, fn, column]) => [`${cellColumn[0]}${fn.toLowerCase()}`, fn, column, cellColumn] as const,
);

/**
 * Where the grouped pass reads: Trajectory rows (alias t, each counting 1) or the precomputed cells (alias c, each
 * counting its n, with the state flags as columns and per-cell bounds).
 */
interface GroupSource {
  state: Record<StateDim, Prisma.Sql>;
  weight: Prisma.Sql | null;
  range: (fn: "MIN" | "MAX", trajectoryColumn: string, cellColumn: string) => Prisma.Sql;
}
const ROWS: GroupSource = { state: STATE_SQL, weight: null, range: (_fn, col) => sql`t.${Prisma.raw(`"${col}"`)}` };
const CELL_STATE: Record<StateDim, Prisma.Sql> = {
  forks: sql`c."forks" = 1`,
  attempt: sql`c."attempt" = 1`,
  warnings: sql`c."warnings" = 1`,
};
const CELLS: GroupSource = { state: CELL_STATE, weight: sql`c."n"`, range: cellBoundSql };
/** The cells of a forkError filter's categories (alias c): stale bounds are read without the attempts moved out. */
const forkCellSource = (cells: ForkErrorCells): GroupSource => ({
  ...CELLS,
  range: (fn, col, cellCol) => cellBoundSql(fn, col, cellCol, cells.movedOut),
});
/** A search's matching step_search_doc rows (alias c): one per trajectory, with its cell key and range columns. */
const KEYED_MATCHES: GroupSource = { state: CELL_STATE, weight: null, range: (_fn, col) => sql`c.${Prisma.raw(`"${col}"`)}` };

/** Rows of the group that pass every condition (a plain COUNT(*) when there is none: the common case, no state filter). */
function countWhere(conds: Prisma.Sql[], weight: Prisma.Sql | null): Prisma.Sql {
  const one = weight ?? sql`1`;
  if (conds.length) return sql`SUM(CASE WHEN ${Prisma.join(conds, " AND ")} THEN ${one} ELSE 0 END)`;
  return weight ? sql`SUM(${weight})` : sql`COUNT(*)`;
}
const as = (alias: string) => Prisma.raw(`"${alias}"`);

/**
 * Per group: `n`, the rows that pass the active state filters (what every other facet, the total and the range
 * bounds count); and for each state facet, its "yes" rows and the rows it is counted over (the other two state
 * filters only — its own is left out, as for every facet). Marginal counts rather than the 2^3 state combinations:
 * with no state filter set they are COUNT(*) and three sums, half the CPU of the eight combinations on SQLite.
 */
function stateAggregates(q: TrajectoryListQuery, src: GroupSource): Prisma.Sql {
  const active = (except?: StateDim) =>
    STATE_DIMS.filter((d) => d !== except && q[d] !== undefined).map((d) => (q[d] === "yes" ? src.state[d] : sql`NOT (${src.state[d]})`));
  const all = active();
  return Prisma.join([
    sql`${countWhere(all, src.weight)} AS "n"`,
    ...STATE_DIMS.flatMap((d) => [
      sql`${countWhere([src.state[d], ...active(d)], src.weight)} AS ${as(`${d}Yes`)}`,
      sql`${countWhere(active(d), src.weight)} AS ${as(`${d}Of`)}`,
    ]),
    ...RANGE_AGGREGATES.map(([alias, fn, col, cellCol]) => {
      const value = src.range(fn, col, cellCol);
      return sql`${Prisma.raw(fn)}(${all.length ? sql`CASE WHEN ${Prisma.join(all, " AND ")} THEN ${value} END` : value}) AS ${as(alias)}`;
    }),
  ]);
}

const groupSchema = z.array(
  z.object({
    run: z.string(),
    task: z.string(),
    o: z.string(),
    e: z.string().nullable(),
    n: num,
    forksYes: num,
    forksOf: num,
    attemptYes: num,
    attemptOf: num,
    warningsYes: num,
    warningsOf: num,
    rmin: nnum,
    rmax: nnum,
    smin: nnum,
    smax: nnum,
    dmin: nnum,
    dmax: nnum,
    emin: nnum,
    emax: nnum,
  }),
);
type Group = z.output<typeof groupSchema>[number];
const boundsSchema = z.array(z.object({ lo: nnum, hi: nnum })).length(1);

/** Options sorted by count (then label); selected values stay listed even when they match nothing now. */
function options(
  counts: Map<string, number>,
  labels: Map<string, { label: string; detail?: string | null }>,
  selected: string[],
): FacetOption[] {
  return [...new Set([...counts.keys(), ...selected])]
    .map((value) => ({
      value,
      label: labels.get(value)?.label ?? value,
      detail: labels.get(value)?.detail ?? null,
      count: counts.get(value) ?? 0,
    }))
    .filter((o) => o.count > 0 || selected.includes(o.value))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/**
 * Which of the filters in `tests` each group passes, as a bit mask (bit i = the i-th filter), computed once per
 * group; `tally` then sums `n` by key over the groups that pass every filter except its own facet's. (Calling every
 * test for every facet was 6 × 6 calls per group: ~2,000 groups at 10^5 trajectories.)
 */
function passMasks<C extends { n: number }, K extends string>(cells: C[], tests: Record<K, (cell: C) => boolean>) {
  const names = Object.keys(tests) as K[];
  const checks = names.map((n) => tests[n]);
  const masks = cells.map((cell) => checks.reduce((m, test, i) => (test(cell) ? m | (1 << i) : m), 0));
  const all = (1 << names.length) - 1;
  return {
    matching: cells.filter((_, i) => masks[i] === all),
    tally(own: K, key: (cell: C) => string | null | undefined): Map<string, number> {
      const need = all & ~(1 << names.indexOf(own));
      const out = new Map<string, number>();
      cells.forEach((cell, i) => {
        if ((masks[i]! & need) !== need) return;
        const k = key(cell);
        if (k) out.set(k, (out.get(k) ?? 0) + cell.n);
      });
      return out;
    },
  };
}

const oneOf = (values: string[], v: string | null | undefined) =>
  values.length === 0 || (v !== null && v !== undefined && values.includes(v));

/**
 * How long each facet statement of a search may run on PostgreSQL. A search's facets count every match: at 10^6 a
 * rare word's take 1.5–2 s, and words that share millions of steps without standing together (`"pytest passed"`)
 * would take minutes. Past the budget the facets are not counted (null) and the page still answers. Under Prisma's
 * 5 s transaction limit, which the budgeted statement's transaction is subject to.
 */
export const SEARCH_FACETS_BUDGET_MS = 4_000;

/**
 * Where a search's facets read its matches' keys: the search index's rows, which carry them on PostgreSQL, or
 * Trajectory (SQLite, and on PostgreSQL whatever cell filters cannot answer). When they answer them all, "index"
 * reads a word's rows in two statements run side by side (search-matches.ts), one for the cells' and forks' facets and
 * one for the marks', and a phrase's in one, the hits' annotations written once for the facets that read them;
 * "index-one-statement" reads them in one statement without that table, "index-per-statement" in each facet's
 * statement, as before both. The other three are for bench/browser.ts and the tests (the ways compared in one run);
 * callers keep the default.
 */
export type MatchKeys = "index" | "index-one-statement" | "index-per-statement" | "trajectory";

/** The facet counts of a query, or null when a search's facets outlasted SEARCH_FACETS_BUDGET_MS. */
export async function findTrajectoryFacets(
  db: Db,
  q: TrajectoryListQuery,
  viewer: Viewer,
  search: ParsedSearch | null,
  matchKeys: MatchKeys = "index",
): Promise<TrajectoryFacets | null> {
  try {
    return await countFacets(db, q, viewer, search, matchKeys);
  } catch (e) {
    if (isStatementTimeout(e)) return null;
    throw e;
  }
}

async function countFacets(
  db: Db,
  q: TrajectoryListQuery,
  viewer: Viewer,
  search: ParsedSearch | null,
  matchKeys: MatchKeys,
): Promise<TrajectoryFacets> {
  const ownScope: FilterScope = scopeOf(db, viewer, search);
  const budgetMs = search && ownScope.dialect === "postgresql" ? SEARCH_FACETS_BUDGET_MS : null;
  // When the search's other filters are all cell filters, the index rows of its matches, which carry their keys on
  // PostgreSQL (alias c), answer every facet: they are read for several facets at once (search-matches.ts).
  const sharedMatch =
    search && (matchKeys === "index" || matchKeys === "index-one-statement") && cellsAnswer(q, ownScope, ["q"])
      ? searchMatchRowsSql(ownScope.dialect, search, "c")
      : null;
  // Otherwise each statement reads them: the rows when the search's words alone answer it (one word), `keyed` when
  // the other filters (but `omit`) are all cell filters, so those rows answer the facet.
  const wordMatch = search && matchKeys !== "trajectory" ? searchKeyedMatchSql(ownScope.dialect, search, "c") : null;
  // The hits' annotations, written once for the "annotated" and label facets.
  const hitsAnnotated = sharedMatch !== null && matchKeys === "index";
  const annotations = hitsAnnotated ? [hitAnnotations(q)] : [];
  // A word's matches in two statements run side by side on two connections, each reading them once: the cells' and
  // forks' facets, and the marks' (datasets, annotations, labels). In one the halves ran one after the other on one
  // core: `ModuleNotFoundError`'s facets at 10^6, 421 ms in one, 302 ms in two. A phrase's matches are its step set,
  // most of its facets' time, which two statements would each compute: 1,087 ms in one, 1,239 in two
  // (docs/benchmarks.md, session 31).
  const twoStatements = hitsAnnotated && wordMatch !== null;
  const shared = sharedMatch ? sharedMatches(db, budgetMs, sharedMatch, twoStatements ? [] : annotations) : null;
  const sharedMarks = twoStatements ? sharedMatches(db, budgetMs, sharedMatch, annotations) : shared;
  const scope: FilterScope = shared ? { ...ownScope, searchMatches: shared.on } : ownScope;
  const keyed = (omit: TrajectoryFilterKey[]) =>
    shared ? shared.keyed : wordMatch && cellsAnswer(q, scope, [...omit, "q"]) ? indexedMatches(wordMatch) : null;
  const keyedGroups = keyed([]);
  const keyedForks = keyed(["forkError"]);
  const read = shared?.read ?? budgetedReader(db, budgetMs);
  const readMatches = shared?.read ?? matchIndexReader(db, budgetMs);
  // The marks' facets test their trajectories against the same word sets (markSource).
  const readMarks = sharedMarks?.read ?? (wordMatch ? readMatches : read);
  const actorId = scope.actorId;
  const where = (omit: TrajectoryFilterKey[]) => whereClause(filterConditions(q, scope, omit));
  const [runs, tasks, datasets] = await Promise.all([
    db.run.findMany({ select: { id: true, name: true, model: true, checkpoint: true } }),
    db.task.findMany({ select: { id: true, name: true, category: true } }),
    db.dataset.findMany({ select: { id: true, name: true } }),
  ]);
  const [cellsRaw, datasetCounts, annotated, rangeBounds, unannotatedTotal, forkErrorCounts, labelCounts] = await Promise.all([
    groupedPass(db, q, scope, { keyed: keyedGroups, readMatches, budgetMs, where: where([...CATALOG, ...STATE]) }),
    datasets.length
      ? datasetGroups(readMarks, markSource(q, scope, "datasetId", "di", shared))
      : Promise.resolve(new Map<string, number>()),
    annotationCounts(readMarks, annotationSource(q, scope, "annotated", "a", shared, hitsAnnotated), actorId),
    // A set range filter needs its own bounds query (without itself); unset ones come from the state groups.
    Promise.all(RANGES.map((k) => (q[k] ? bounds(read, k, where([k])) : Promise.resolve(null)))),
    q.annotated ? count(read, where(["annotated"])) : Promise.resolve(null),
    cellsAnswer(q, scope, ["forkError"]) || keyedForks
      ? forkCategoryCounts(keyedForks ? readMatches : read, q, scope, keyedForks)
      : forkErrorGroups(read, scope.dialect, filterConditions(q, scope, ["forkError"])),
    labelGroups(readMarks, scope, annotationSource(q, scope, "label", "la", shared, hitsAnnotated)),
  ]);
  const runById = new Map(runs.map((r) => [r.id, r]));
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const groups = groupSchema.parse(cellsRaw);
  const tests: Record<(typeof CATALOG)[number] | (typeof GROUPED_STATE)[number], (x: Group) => boolean> = {
    runId: (x) => oneOf(q.runId, x.run),
    model: (x) => oneOf(q.model, runById.get(x.run)?.model),
    taskId: (x) => oneOf(q.taskId, x.task),
    category: (x) => oneOf(q.category, taskById.get(x.task)?.category),
    outcome: (x) => oneOf(q.outcome, x.o),
    error: (x) => oneOf(q.error, x.e ?? NO_ERROR),
  };
  // The state filters are already applied inside each group's counts, so `matching` is every grouped filter passed.
  const { matching, tally } = passMasks(groups, tests);
  const sum = (pick: (x: Group) => number) => matching.reduce((n, x) => n + pick(x), 0);
  const total = sum((x) => x.n);
  const range = (i: number, lo: (x: Group) => number | null, hi: (x: Group) => number | null): RangeBounds =>
    rangeBounds[i] ?? { min: extreme(matching.map(lo), Math.min), max: extreme(matching.map(hi), Math.max) };
  const yesNo = (d: StateDim) => ({ yes: sum((x) => x[`${d}Yes`]), no: sum((x) => x[`${d}Of`] - x[`${d}Yes`]) });
  const [forks, attempts, warned] = [yesNo("forks"), yesNo("attempt"), yesNo("warnings")];
  const outcomes = tally("outcome", (x) => x.o);
  const duration = range(
    2,
    (x) => x.dmin,
    (x) => x.dmax,
  );
  return {
    runId: options(
      tally("runId", (x) => x.run),
      new Map(runs.map((r) => [r.id, { label: r.name, detail: [r.model, r.checkpoint].filter(Boolean).join(" · ") || null }])),
      q.runId,
    ),
    model: options(
      tally("model", (x) => runById.get(x.run)?.model),
      new Map(),
      q.model,
    ),
    taskId: options(
      tally("taskId", (x) => x.task),
      new Map(tasks.map((t) => [t.id, { label: t.name, detail: t.category }])),
      q.taskId,
    ),
    category: options(
      tally("category", (x) => taskById.get(x.task)?.category),
      new Map(),
      q.category,
    ),
    outcome: OUTCOMES.map((o) => ({ value: o, label: o, count: outcomes.get(o) ?? 0 })).filter(
      (o) => o.count > 0 || q.outcome.includes(o.value),
    ),
    error: options(
      tally("error", (x) => x.e ?? NO_ERROR),
      new Map([[NO_ERROR, { label: "No error found" }]]),
      q.error,
    ),
    datasetId: options(datasetCounts, new Map(datasets.map((d) => [d.id, { label: d.name }])), q.datasetId),
    forkError: options(forkErrorCounts, new Map([[NO_ERROR, { label: "Uncategorized" }]]), q.forkError),
    label: options(labelCounts, new Map(), q.label),
    forks: [
      { value: "yes", label: "With fork points", count: forks.yes },
      { value: "no", label: "Without", count: forks.no },
    ],
    attempt: [
      { value: "yes", label: "Recovery attempts", count: attempts.yes },
      { value: "no", label: "Original rollouts", count: attempts.no },
    ],
    warnings: [
      { value: "yes", label: "Imported with warnings", count: warned.yes },
      { value: "no", label: "Read completely", count: warned.no },
    ],
    annotated: [
      { value: "me", label: "Me", count: annotated.me },
      { value: "anyone", label: "Anyone", count: annotated.anyone },
      { value: "nobody", label: "Nobody", count: (unannotatedTotal ?? total) - annotated.anyone },
    ],
    reward: range(
      0,
      (x) => x.rmin,
      (x) => x.rmax,
    ),
    steps: range(
      1,
      (x) => x.smin,
      (x) => x.smax,
    ),
    firstErrorStep: range(
      3,
      (x) => x.emin,
      (x) => x.emax,
    ),
    duration: {
      min: duration.min === null ? null : Math.floor(duration.min / 1000),
      max: duration.max === null ? null : Math.ceil(duration.max / 1000),
    },
  };
}

/**
 * The one grouped pass, from the smallest source that answers it: the precomputed cells when every filter is a cell
 * filter; with a forkError filter beside them, the chosen categories' cells (fork-error-cells.ts: labelled fork
 * points' attempts moved across); a search's matching index rows when they carry the keys (`keyed`); else Trajectory's
 * rows, filtered by `where` (the filters the groups cannot apply), grouped by the browse index's four leading columns
 * only, so both databases stream the groups in index order without a sort. Forks / attempt / warnings are counted
 * inside each group (stateAggregates).
 */
function groupedPass(
  db: Db,
  q: TrajectoryListQuery,
  scope: FilterScope,
  src: { keyed: KeyedMatches | null; readMatches: Read; budgetMs: number | null; where: Prisma.Sql },
): Promise<unknown[]> {
  const key = sql`SELECT c."outcome" AS "o", c."runId" AS "run", c."taskId" AS "task", NULLIF(c."errorCategory", '') AS "e"`;
  const byKey = sql`GROUP BY c."outcome", c."runId", c."taskId", c."errorCategory"`;
  if (cellsAnswer(q, scope)) return db.$queryRaw<unknown[]>`${key}, ${stateAggregates(q, CELLS)} FROM "TrajectoryFacetCell" c ${byKey}`;
  if (q.forkError.length && cellsAnswer(q, scope, ["forkError"])) {
    const forkCells = forkErrorCellsSql(q.forkError);
    return db.$queryRaw<
      unknown[]
    >`${forkCells.with} ${key}, ${stateAggregates(q, forkCellSource(forkCells))} FROM (${forkCells.cells}) c ${byKey}`;
  }
  if (src.keyed)
    return src.readMatches(
      sql`${key}, ${stateAggregates(q, KEYED_MATCHES)} FROM ${src.keyed.from}${whereClause(src.keyed.where)} ${byKey}`,
    );
  return withIndexCosts(
    db,
    src.budgetMs,
    (tx) => tx.$queryRaw<unknown[]>`SELECT t."outcome" AS "o", t."runId" AS "run", t."taskId" AS "task", t."firstErrorCategory" AS "e",
      ${stateAggregates(q, ROWS)} FROM "Trajectory" t${src.where} GROUP BY t."outcome", t."runId", t."taskId", t."firstErrorCategory"`,
  );
}

/**
 * The one-pass group-by on PostgreSQL, planned with solid-state page costs (random_page_cost 1.1, the value
 * PostgreSQL's documentation gives for SSDs; the default 4 models spinning disks): it then reads the covering
 * Trajectory_browse_idx (~7,000 pages at 10^5 trajectories) instead of the whole table (~13,500), 124 → 94 ms. And
 * in one process: the facets' statements already run side by side, and on 2 cores the two parallel workers the
 * planner starts for this scan only compete with them (an EXPLAIN ANALYZE under load: 511 ms with workers).
 * Set for this statement only (SET LOCAL), so the server's own settings stay in force everywhere else.
 */
async function withIndexCosts<T>(db: Db, budgetMs: number | null, run: (q: Queryable) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== "postgresql") return run(db);
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(
        "SELECT set_config('random_page_cost', '1.1', true), set_config('max_parallel_workers_per_gather', '0', true)",
      );
      if (budgetMs !== null) await tx.$queryRaw(statementBudgetSql(budgetMs));
      return run(tx);
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
}

/**
 * A reader for the passes over a search's matching step_search_doc rows: each statement under the budget, with
 * sequential scans priced out so the rows come through the words' GIN index. A scan tests every row's word set (inline
 * in a row under 2 kB, else read back from the TOAST table), a cost the planner's estimate leaves out, which made it
 * prefer the scan for a common word (at 2×10^4, `pytest` in 92% of the rows: 31,513 buffers and 44 ms scanned,
 * 2,637 buffers and 17 ms through the index, whose exact bitmap needs no recheck). PostgreSQL only, like the keys.
 */
function matchIndexReader(db: Db, budgetMs: number | null): Read {
  return (query) => budgetedBatch(db, budgetMs, [SEQ_SCANS_PRICED_OUT, query]).then((rows) => rows[1]!);
}

function extreme(values: (number | null)[], pick: (...n: number[]) => number): number | null {
  const nums = values.filter((v) => v !== null);
  return nums.length ? pick(...nums) : null;
}

const RANGE_COLUMN: Record<(typeof RANGES)[number], Prisma.Sql> = {
  reward: sql`t."reward"`,
  steps: sql`t."stepCount"`,
  duration: sql`t."durationMs"`,
  firstErrorStep: sql`t."firstErrorStep"`,
};

async function bounds(read: Read, key: (typeof RANGES)[number], where: Prisma.Sql): Promise<RangeBounds> {
  const col = RANGE_COLUMN[key];
  const [r] = boundsSchema.parse(await read(sql`SELECT MIN(${col}) AS "lo", MAX(${col}) AS "hi" FROM "Trajectory" t${where}`));
  return { min: r!.lo, max: r!.hi };
}

async function count(read: Read, where: Prisma.Sql): Promise<number> {
  return z
    .array(z.object({ c: num }))
    .length(1)
    .parse(await read(sql`SELECT COUNT(*) AS "c" FROM "Trajectory" t${where}`))[0]!.c;
}

/** Attempts per fork-point category — grouped by fork point first, so the category is looked up once each. */
async function forkErrorGroups(read: Read, dialect: Dialect, conditions: Prisma.Sql[]): Promise<Map<string, number>> {
  // Grouped by byte order on PostgreSQL: a locale-aware sort of ~13,000 category strings was a third of the statement.
  const k = dialect === "postgresql" ? sql`g."k" COLLATE "C"` : sql`g."k"`;
  const rows = await read(sql`SELECT ${k} AS "k", CAST(SUM(g."c") AS INTEGER) AS "c" FROM (
      SELECT ${forkCategorySql("fp", dialect)} AS "k", x."c" FROM (
        SELECT t."forkPointId" AS "id", COUNT(*) AS "c" FROM "Trajectory" t${whereClause([sql`t."forkPointId" IS NOT NULL`, ...conditions])} GROUP BY t."forkPointId"
      ) x JOIN "ForkPoint" fp ON fp."id" = x."id") g GROUP BY 1`);
  return new Map(
    z
      .array(z.object({ k: z.string().nullable(), c: num }))
      .parse(rows)
      .map((r) => [r.k ?? NO_ERROR, r.c]),
  );
}

/** A facet driven from a small table (annotations, dataset items): the join its rows need for the other filters. */
interface MarkSource {
  join: Prisma.Sql;
  conditions: Prisma.Sql[];
}

/**
 * The join for the filters other than facet `own`: none when there are none (every annotation and dataset item has
 * its trajectory: the foreign keys cascade) or only a search (it tests the mark's trajectory id); the marked
 * trajectories' cell keys and fork points when the rest are cell filters and a forkError filter (a small table, where a
 * probe of Trajectory's 10^6-entry index per row cost 19 µs past shared_buffers: 780 ms for the 40,000 annotations at
 * 10^6); else Trajectory by id.
 */
function markSource(
  q: TrajectoryListQuery,
  scope: FilterScope,
  own: TrajectoryFilterKey,
  alias: string,
  shared: SharedMatches | null,
): MarkSource {
  const conditions = filterConditions(q, scope, [own]);
  const ref = Prisma.raw(`"${alias}"."trajectoryId"`);
  if (!conditions.length) return { join: Prisma.empty, conditions };
  // The search's hits carry the cell keys too: joined to them, the marks need no other table.
  if (shared) return { join: shared.join(ref), conditions: cellConditions(q) };
  if (cellsAnswer(q, scope, [own, "q", "forkError"])) {
    const search = searchOn(scope, ref);
    const forkError = own !== "forkError" && q.forkError.length ? markForkErrorSql(q.forkError) : null;
    const cells = forkError ? [...cellConditions(q), forkError] : cellConditions(q);
    const join = cells.length ? sql` JOIN "MarkedTrajectory" c ON c."trajectoryId" = ${ref}` : Prisma.empty;
    return { join, conditions: search ? [...cells, search] : cells };
  }
  return { join: sql` JOIN "Trajectory" t ON t."id" = ${ref}`, conditions };
}

/** The annotations a facet reads as alias `alias`: the table, or the hits' annotations written once (hitAnnotations). */
interface AnnotationSource extends MarkSource {
  from: Prisma.Sql;
}

const HIT_ANNOTATIONS = "hit_annotations";

/**
 * The annotations of a search's hits that pass the cell filters, with the columns the "annotated" and label facets
 * read, for the statement that counts both: each joined Annotation to the hits on its own (82 and 35 ms of
 * `ModuleNotFoundError`'s facets at 10^6).
 */
function hitAnnotations(q: TrajectoryListQuery): SharedTable {
  const ref = sql`a."trajectoryId"`;
  return {
    name: HIT_ANNOTATIONS,
    query: sql`SELECT a."trajectoryId", a."annotatorId", a."schemaId", a."value" FROM "Annotation" a${joinHits(ref)}${whereClause(cellConditions(q))}`,
  };
}

function annotationSource(
  q: TrajectoryListQuery,
  scope: FilterScope,
  own: TrajectoryFilterKey,
  alias: string,
  shared: SharedMatches | null,
  hitsAnnotated: boolean,
): AnnotationSource {
  if (hitsAnnotated) return { from: Prisma.raw(`"${HIT_ANNOTATIONS}" "${alias}"`), join: Prisma.empty, conditions: [] };
  return { from: Prisma.raw(`"Annotation" "${alias}"`), ...markSource(q, scope, own, alias, shared) };
}

/** Like the dataset facet, driven from the (small) annotation table and joined to Trajectory by id. */
async function labelGroups(read: Read, scope: FilterScope, { from, join, conditions }: AnnotationSource): Promise<Map<string, number>> {
  const rows = await read(sql`SELECT la."value" AS "k", COUNT(DISTINCT la."trajectoryId") AS "c"
    FROM ${from}${join}${whereClause([labelScopeSql(scope), ...conditions])} GROUP BY la."value"`);
  return new Map(
    z
      .array(z.object({ k: z.string(), c: num }))
      .parse(rows)
      .map((r) => [r.k, r.c]),
  );
}

async function datasetGroups(read: Read, { join, conditions }: MarkSource): Promise<Map<string, number>> {
  const rows = await read(sql`SELECT v."datasetId" AS "k", COUNT(DISTINCT di."trajectoryId") AS "c"
    FROM "DatasetItem" di JOIN "DatasetVersion" v ON v."id" = di."datasetVersionId"${join}
    ${whereClause([LATEST_VERSION_SQL, ...conditions])} GROUP BY v."datasetId"`);
  return new Map(
    z
      .array(z.object({ k: z.string(), c: num }))
      .parse(rows)
      .map((r) => [r.k, r.c]),
  );
}

/** Driven from the (small) annotation table rather than probing it once per trajectory. */
async function annotationCounts(
  read: Read,
  { from, join, conditions }: AnnotationSource,
  actorId: string,
): Promise<{ me: number; anyone: number }> {
  const rows =
    await read(sql`SELECT COUNT(DISTINCT a."trajectoryId") AS "anyone", COUNT(DISTINCT CASE WHEN a."annotatorId" = ${actorId} THEN a."trajectoryId" END) AS "me"
    FROM ${from}${join}${whereClause(conditions)}`);
  return z
    .array(z.object({ anyone: num, me: num }))
    .length(1)
    .parse(rows)[0]!;
}
