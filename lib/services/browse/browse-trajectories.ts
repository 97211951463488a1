// Use cases of the trajectory browser: one page of the table, facet counts, and "select all matching".
import { authorize, type ServiceContext } from "../context.ts";
import { ensureSearchIndex, findMatches, parseSearchQuery, type StepMatch } from "./search-trajectories.ts";
import { findMatchingTrajectoryIds, findTrajectoriesPage, type TrajectoryRow } from "../../db/repositories/browse/trajectories.ts";
import type { Viewer } from "../../db/repositories/browse/trajectory-filters.ts";
import { visibleAnnotators } from "../annotation/list-labels.ts";
import {
  findTrajectoryFacets,
  type FacetOption,
  type MatchKeys,
  type RangeBounds,
  type TrajectoryFacets,
} from "../../db/repositories/browse/facets.ts";
import type { ParsedSearch } from "../../db/repositories/search/index.ts";
import { encodeCursor, type TrajectoryListQuery } from "../../validation/search-params/index.ts";

export type { FacetOption, RangeBounds, StepMatch, TrajectoryFacets };
/** A table row; `match` is the first step matching the search, when there is one. */
export type TrajectoryListRow = TrajectoryRow & { match?: StepMatch | null };
export type { TrajectoryListRow as TrajectoryRow };

export interface SearchState {
  /** False when the search text has no letters or digits (nothing can match). */
  searchable: boolean;
  /** Trajectories not yet in the search index (they cannot match until indexed). */
  indexLag: number;
  /** The search ran out of time before it could say what matches: no rows is not "no matches". */
  stopped: boolean;
}

export interface TrajectoryList {
  rows: TrajectoryListRow[];
  /** Matching trajectories; with `totalCapped`, a lower bound (a search stops counting past SEARCH_COUNT_CAP). */
  total: number;
  totalCapped: boolean;
  page: number;
  perPage: number;
  /** Pages known to exist: with `totalCapped`, at least one more than the current page while there is a next one. */
  pageCount: number;
  nextCursor: string | null;
  prevCursor: string | null;
  search: SearchState | null;
}

async function prepareSearch(
  ctx: ServiceContext,
  q: TrajectoryListQuery,
): Promise<{ parsed: ParsedSearch | null; state: SearchState | null }> {
  if (!q.q) return { parsed: null, state: null };
  const parsed = parseSearchQuery(q.q);
  if (!parsed) return { parsed: null, state: { searchable: false, indexLag: 0, stopped: false } };
  return { parsed, state: { searchable: true, indexLag: await ensureSearchIndex(ctx), stopped: false } };
}

/** Blind mode holds in the browser too — an annotator's label facet, filter and column see their own labels. */
async function viewerOf(ctx: ServiceContext): Promise<Viewer> {
  return { id: ctx.actor.id, labelAnnotatorIds: await visibleAnnotators(ctx) };
}

const empty = (q: TrajectoryListQuery, search: SearchState | null): TrajectoryList => ({
  rows: [],
  total: 0,
  totalCapped: false,
  page: q.page,
  perPage: q.perPage,
  pageCount: 1,
  nextCursor: null,
  prevCursor: null,
  search,
});

/** One page of trajectories matching the query, with the total and keyset cursors for the neighbouring pages. */
export async function listTrajectories(ctx: ServiceContext, q: TrajectoryListQuery): Promise<TrajectoryList> {
  authorize(ctx, "trajectory:read");
  const { parsed, state } = await prepareSearch(ctx, q);
  if (state && !state.searchable) return empty(q, state);
  const page = await findTrajectoriesPage(ctx.db, q, await viewerOf(ctx), parsed);
  const matches = parsed
    ? await findMatches(
        ctx,
        page.rows.map((r) => r.id),
        parsed,
      )
    : null;
  return {
    rows: matches ? page.rows.map((r) => ({ ...r, match: matches.get(r.id) ?? null })) : page.rows,
    total: page.total,
    totalCapped: page.totalCapped,
    page: q.page,
    perPage: q.perPage,
    pageCount: Math.max(1, Math.ceil(page.total / q.perPage), page.nextCursor ? q.page + 1 : q.page),
    nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null,
    prevCursor: page.prevCursor ? encodeCursor(page.prevCursor) : null,
    search: state && { ...state, stopped: page.searchStopped === true },
  };
}

/**
 * Counts per facet value, each computed with every other active filter applied. `matchKeys` is for bench/browser.ts
 * and the tests (the ways compared in one run); callers keep the default.
 */
export async function getTrajectoryFacets(
  ctx: ServiceContext,
  q: TrajectoryListQuery,
  matchKeys?: MatchKeys,
): Promise<TrajectoryFacets | null> {
  authorize(ctx, "trajectory:read");
  const { parsed, state } = await prepareSearch(ctx, q);
  if (state && !state.searchable) return null;
  return findTrajectoryFacets(ctx.db, q, await viewerOf(ctx), parsed, matchKeys);
}

export const MAX_SELECTION = 100_000;

/**
 * Every trajectory matching the query (not only the visible page), in list order: what "select all" selects and
 * what dataset curation adds. `truncated` when more than MAX_SELECTION match.
 */
export async function selectMatchingTrajectories(
  ctx: ServiceContext,
  q: TrajectoryListQuery,
): Promise<{ total: number; ids: string[]; truncated: boolean }> {
  authorize(ctx, "trajectory:read");
  const { parsed, state } = await prepareSearch(ctx, q);
  if (state && !state.searchable) return { total: 0, ids: [], truncated: false };
  const { ids, total } = await findMatchingTrajectoryIds(ctx.db, q, await viewerOf(ctx), parsed, MAX_SELECTION);
  return { total, ids, truncated: total > ids.length };
}
