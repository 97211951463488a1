// How a page of search results evaluates its search (trajectories.ts runs the plan): which SearchForm the page and
// its capped count use, whether candidates are confirmed one by one, and how long each way may take before the next
// is tried.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { searchCandidateEstimate, searchStepMatchesUpTo, searchVerifySql, type SearchForm } from "../search/index.ts";
import type { FilterScope } from "./trajectory-filters.ts";

export interface SearchPlan {
  page: SearchForm;
  count: SearchForm;
  /** The exact check applied to candidates, in list order for the page (null: the forms are exact). */
  verify: Prisma.Sql | null;
  /** Sequential scans priced out of its statements on PostgreSQL (HITS_PLAN). */
  scansPricedOut?: boolean;
}
/** One way to answer, and how long (PostgreSQL's statement_timeout, ms) each of its statements may run; null: no limit. */
export interface SearchAttempt {
  plan: SearchPlan;
  budgetMs: number | null;
}

const PROBE_PLAN: SearchPlan = { page: "probe", count: "probe", verify: null };
/**
 * A word's hits, read through the words' GIN index: a sequential scan of step_search_doc tests every row's word set, a
 * cost the planner leaves out (facets.ts, matchIndexReader), and it chose one for a word in every trajectory, whose
 * count then read them all (`working` at 10^5: 388 ms scanned, 57 ms through the index).
 */
const HITS_PLAN: SearchPlan = { page: "hits", count: "hitSet", verify: null, scansPricedOut: true };
/**
 * A phrase's matching steps read as a set, for the page too: its words may be common where the phrase is rare, and
 * PostgreSQL, estimating it from its words, then walked the list order probing every trajectory's steps (seconds at
 * 10^6 for `"named pytest"`, in no step; 46 ms as a set).
 */
const STEP_SET_PLAN: SearchPlan = { page: "hitSet", count: "hitSet", verify: null };

/**
 * How long a page walked in list order (a common word probed, or candidates confirmed one by one) may take before it
 * is answered from the steps' hits instead. Candidates can hold all the words without a step that matches: "named"
 * and "pytest" share no step at 10^6 but 42,910 trajectories, so walking them would confirm every one (seconds), where
 * the steps holding both are none (47 ms). Both ways give the same rows; the budget only bounds the slower guess.
 */
export const LIST_WALK_BUDGET_MS = 500;

/**
 * How long the matching steps, read as a set, may take before the search is reported as stopped. Words that share
 * millions of steps without ever standing side by side (`"pytest passed"` at 10^6) take longer to check than anyone
 * waits; without a budget the page failed at Prisma's 5 s transaction limit.
 */
export const STEP_SET_BUDGET_MS = 3_000;

/** From this many candidates on, a phrase confirms candidates in turn (see planSearch). */
export const MANY_CANDIDATES = 3_000;

/**
 * How long counting a phrase's matching steps (up to `many`) may take before the phrase is taken to be in many steps.
 * The count intersects its words' index entries, then checks the steps holding them all until `many` match: quick
 * for a phrase in many steps (it stops early) and for words that rarely stand together (few steps hold them all).
 * Only words that share millions of steps without standing together run to the budget; their step set then runs to its
 * own budget too.
 */
export const STEP_COUNT_BUDGET_MS = 200;

/**
 * The ways to answer a search page and its capped count, in order: the next is tried when one runs out of its
 * budget, and when the last does the search is reported as stopped. A common word: probed in list order. One word:
 * its hits. A phrase or words sharing a step on PostgreSQL (verifySql not null): from the statistics, at most how
 * many trajectories hold all the words (the rarest word's count). Fewer than `many`, and the steps holding all the
 * words are few too: read as a set. More, and the matching steps are counted up to `many`: fewer, and they are read as
 * a set too. Past that, reading them grows with them (770 ms for `"no module named"` at 10^6, 144,789 steps): the
 * page walks the list order checking each trajectory's words, confirming on its steps until the page is full, and the
 * count confirms candidates until the cap. Budgets are PostgreSQL's: SQLite answers
 * phrases from FTS5's position lists, in one way, on one machine.
 */
export async function planSearch(db: Db, scope: FilterScope, many: number): Promise<SearchAttempt[]> {
  const budgets = scope.dialect === "postgresql";
  const walkThenSet = (walk: SearchPlan): SearchAttempt[] =>
    budgets
      ? [
          { plan: walk, budgetMs: LIST_WALK_BUDGET_MS },
          { plan: STEP_SET_PLAN, budgetMs: STEP_SET_BUDGET_MS },
        ]
      : [{ plan: walk, budgetMs: null }];
  if (scope.searchForm === "probe") return walkThenSet(PROBE_PLAN);
  const verify = scope.search ? searchVerifySql(scope.dialect, scope.search, "c") : null;
  if (!verify) return [{ plan: HITS_PLAN, budgetMs: budgets ? STEP_SET_BUDGET_MS : null }];
  const stepSet: SearchAttempt[] = [{ plan: STEP_SET_PLAN, budgetMs: STEP_SET_BUDGET_MS }];
  if ((await searchCandidateEstimate(db, scope.search!)) < many) return stepSet;
  // Many trajectories hold all the words; whether many steps hold the phrase is counted (`"named pytest"` at 10^6:
  // 42,910 trajectories hold both words and no step the phrase, so the walk confirmed every one for its 500 ms budget).
  const steps = await searchStepMatchesUpTo(db, scope.search!, many, budgets ? STEP_COUNT_BUDGET_MS : null);
  return steps < many ? stepSet : walkThenSet({ page: "candidateProbe", count: "candidates", verify });
}
