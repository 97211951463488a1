// How a page of search results evaluates its search (trajectories.ts runs the plan): which SearchForm the page and
// its capped count use, and whether candidates are confirmed one by one under a statement budget.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Db } from "../../client.ts";
import { searchCandidateEstimate, searchVerifySql, type SearchForm } from "../search/index.ts";
import type { FilterScope } from "./trajectory-filters.ts";

export interface SearchPlan {
  page: SearchForm;
  count: SearchForm;
  /** The exact check applied to candidates, in list order for the page (null: the forms are exact). */
  verify: Prisma.Sql | null;
}
const HITS_PLAN: SearchPlan = { page: "hits", count: "hitSet", verify: null };
/**
 * A phrase's matching steps read as a set, for the page too: its words may be common where the phrase is rare, and
 * PostgreSQL, estimating it from its words, then walked the list order probing every trajectory's steps (seconds at
 * 10^6 for `"named pytest"`, in no step; 46 ms as a set).
 */
export const STEP_SET_PLAN: SearchPlan = { page: "hitSet", count: "hitSet", verify: null };

/**
 * How long a page narrowed to candidates may take before it is answered from the steps' hits instead. Candidates can
 * hold all the words without a step that matches: "named" and "pytest" share no step at 10^6 but 42,910 trajectories,
 * so walking them would confirm every one (seconds), where the steps holding both are none (47 ms). Both ways give the
 * same rows; the budget only bounds the slower guess.
 */
export const NARROWED_SEARCH_BUDGET_MS = 500;

/** From this many candidates on, a phrase confirms candidates in turn (see planSearch). */
export const MANY_CANDIDATES = 3_000;

/**
 * How a search page and its capped count evaluate the search. A common word: probed in list order. One word: its
 * hits. A phrase or words sharing a step on PostgreSQL (verifySql not null): from the statistics, at most how many
 * trajectories hold all the words (the rarest word's count). Fewer than `many`, and the steps holding all the words
 * are few too: read as a set. More, and reading those steps grows with them (770 ms for `"no module named"` at 10^6,
 * 144,789 steps): the page walks the list order checking each trajectory's words, confirming on its steps until the
 * page is full, and the count confirms candidates until the cap, each statement within NARROWED_SEARCH_BUDGET_MS,
 * else read as a set after all.
 */
export async function planSearch(db: Db, scope: FilterScope, many: number): Promise<SearchPlan> {
  if (scope.searchForm === "probe") return { page: "probe", count: "probe", verify: null };
  const verify = scope.search ? searchVerifySql(scope.dialect, scope.search, "c") : null;
  if (!verify) return HITS_PLAN;
  const candidates = await searchCandidateEstimate(db, scope.search!);
  return candidates < many ? STEP_SET_PLAN : { page: "candidateProbe", count: "candidates", verify };
}
