// Use case: full-text search over steps (commands, outputs, reasoning; ANSI escapes ignored), and the highlighted
// snippets shown for a match. The index itself lives in lib/db/repositories/search/.
import { authorize, type ServiceContext } from "../context.ts";
import {
  findStepHits,
  findStepTexts,
  findFirstMatchingSteps,
  indexMissingTrajectories,
  parseSearchQuery,
  reindexSearch,
  searchIndexLag,
  tokenSpans,
  SEARCH_FIELDS,
  type ParsedSearch,
  type StepText,
} from "../../db/repositories/search/index.ts";
import { findTrajectoryLabels } from "../../db/repositories/browse/trajectories.ts";
import { stepHref, type SearchQueryParams } from "../../validation/search-params/index.ts";
import { stripAnsi } from "../../domain/ansi.ts";

export { parseSearchQuery, type ParsedSearch };

export interface SnippetPart {
  text: string;
  hit: boolean;
}
export type MatchField = (typeof SEARCH_FIELDS)[number];
/** Where a query matched inside a step: the field and a short excerpt with the matching words marked. */
export interface StepMatch {
  stepIndex: number;
  field: MatchField;
  parts: SnippetPart[];
}

const BEFORE = 60;
const WINDOW = 220;

/** Character ranges in `text` where a term of the query occurs (phrases as one range). */
function hitRanges(text: string, s: ParsedSearch): [number, number][] {
  const spans = Array.from(tokenSpans(text));
  const ranges: [number, number][] = [];
  for (let i = 0; i < spans.length; i++) {
    for (const term of s.terms) {
      const n = term.tokens.length;
      if (i + n > spans.length) continue;
      const ok = term.tokens.every((tok, j) =>
        term.prefix && j === n - 1 ? spans[i + j]!.token.startsWith(tok) : spans[i + j]!.token === tok,
      );
      if (ok) ranges.push([spans[i]!.start, spans[i + n - 1]!.end]);
    }
  }
  return ranges;
}

/** A one-line excerpt of `text` around its first hit, split into plain and highlighted parts. Never HTML. */
export function snippet(text: string, ranges: [number, number][]): SnippetPart[] {
  const firstHit = ranges[0]?.[0] ?? 0;
  let start = Math.max(0, firstHit - BEFORE);
  const ws = text.lastIndexOf(" ", start);
  if (start > 0 && ws > firstHit - BEFORE - 20) start = ws + 1;
  const end = Math.min(text.length, start + WINDOW);
  const parts: SnippetPart[] = [];
  const push = (from: number, to: number, hit: boolean) => {
    if (to <= from) return;
    const piece = text.slice(from, to).replace(/\s+/g, " ");
    const last = parts.at(-1);
    if (last && last.hit === hit) last.text += piece;
    else parts.push({ text: piece, hit });
  };
  let pos = start;
  for (const [a, b] of ranges) {
    if (b <= pos || a >= end) continue;
    push(pos, Math.max(pos, a), false);
    push(Math.max(pos, a), Math.min(b, end), true);
    pos = Math.min(b, end);
  }
  push(pos, end, false);
  if (start > 0) parts.unshift({ text: "…", hit: false });
  if (end < text.length) parts.push({ text: "…", hit: false });
  return parts;
}

/** The first field of a step where the query matches, with its snippet (null when nothing in it matches). */
export function buildStepMatch(step: StepText & { index: number }, s: ParsedSearch): StepMatch | null {
  for (const field of SEARCH_FIELDS) {
    const raw = step[field];
    if (!raw) continue;
    const text = stripAnsi(raw);
    const ranges = hitRanges(text, s);
    if (ranges.length) return { stepIndex: step.index, field, parts: snippet(text, ranges) };
  }
  return null;
}

const CATCH_UP_PER_REQUEST = 2_000;

/**
 * Make sure recently imported trajectories are searchable: the import path indexes as it writes, but trajectories
 * written another way (or before the index existed) are picked up here, a bounded batch per request.
 * Returns how many trajectories are still not indexed. Checked on every search: the check reads two kept counts
 * (searchIndexLag), so no process needs to remember an answer another replica's import may have made stale.
 */
export async function ensureSearchIndex(ctx: ServiceContext): Promise<number> {
  authorize(ctx, "trajectory:read");
  let lag = await searchIndexLag(ctx.db);
  if (lag > 0) {
    await indexMissingTrajectories(ctx.db, CATCH_UP_PER_REQUEST);
    lag = await searchIndexLag(ctx.db);
  }
  return lag;
}

/** The first matching step (with snippet) of each given trajectory. */
export async function findMatches(ctx: ServiceContext, trajectoryIds: string[], s: ParsedSearch): Promise<Map<string, StepMatch>> {
  authorize(ctx, "trajectory:read");
  const first = await findFirstMatchingSteps(ctx.db, trajectoryIds, s);
  const texts = await findStepTexts(
    ctx.db,
    [...first].map(([trajectoryId, stepIndex]) => ({ trajectoryId, stepIndex })),
  );
  const out = new Map<string, StepMatch>();
  for (const t of texts) {
    const m = buildStepMatch(t, s);
    if (m) out.set(t.trajectoryId, m);
  }
  return out;
}

export interface SearchHit {
  trajectoryId: string;
  taskName: string;
  runName: string;
  outcome: string;
  match: StepMatch;
  /** Opens the trajectory at the matching step. */
  href: string;
}

/** Matching steps across all trajectories, newest first, `limit` per page. */
export async function searchSteps(
  ctx: ServiceContext,
  params: SearchQueryParams,
): Promise<{ hits: SearchHit[]; nextCursor: string | null; indexLag: number; searchable: boolean }> {
  authorize(ctx, "trajectory:read");
  const s = parseSearchQuery(params.q);
  if (!s) return { hits: [], nextCursor: null, indexLag: 0, searchable: false };
  const indexLag = await ensureSearchIndex(ctx);
  const refs = await findStepHits(ctx.db, s, {
    limit: params.limit,
    beforeRid: params.cursor === undefined ? undefined : Number(params.cursor),
  });
  const [texts, labels] = await Promise.all([
    findStepTexts(ctx.db, refs),
    findTrajectoryLabels(ctx.db, [...new Set(refs.map((r) => r.trajectoryId))]),
  ]);
  const textOf = new Map(texts.map((t) => [`${t.trajectoryId}#${t.index}`, t]));
  const hits: SearchHit[] = [];
  for (const r of refs) {
    const text = textOf.get(`${r.trajectoryId}#${r.stepIndex}`);
    const label = labels.get(r.trajectoryId);
    const match = text ? buildStepMatch(text, s) : null;
    if (label && match) hits.push({ trajectoryId: r.trajectoryId, ...label, match, href: stepHref(r.trajectoryId, r.stepIndex) });
  }
  return { hits, nextCursor: refs.length === params.limit ? String(refs.at(-1)!.rid) : null, indexLag, searchable: true };
}

/**
 * Rebuild the full-text index from the steps table (after an upgrade, or to purge entries of deleted
 * trajectories). For the CLI (`reterm reindex-search`); searches keep working on a partial index meanwhile.
 */
export async function rebuildSearchIndex(
  ctx: ServiceContext,
  opts: { onProgress?: (indexed: number) => void } = {},
): Promise<{ trajectories: number }> {
  authorize(ctx, "trajectory:import");
  return reindexSearch(ctx.db, opts);
}
