// Terminal-aware full-text search over steps, the part both databases share (pure): what is indexed, and how a
// query is parsed.
// Index: the ANSI-stripped text of each step's command, output, reasoning and message, normalized to lowercase
// letter/digit tokens (paths, flags and identifiers split at punctuation, so `tests/test_io.py` is the phrase
// "tests test io py"). SQLite keeps it in a contentless FTS5 table, PostgreSQL in a tsvector column with a GIN
// index ('simple' config: no stemming, no stop words). Both index the same token stream and receive the same
// parsed query, so a query means the same thing on either database. Row ids: seq * 2^20 + step index, where seq
// numbers trajectories in indexing order (step_search_doc), so hits sort newest-indexed first on both.
import { stripAnsi } from "../../../domain/ansi.ts";

export const STEP_BITS = 2 ** 20;
export const MAX_TOKEN_LENGTH = 64;
// Per step: the first HEAD and last TAIL tokens. Bounds index size and PostgreSQL's 1 MB tsvector limit; the tail
// keeps the end of long outputs (where errors usually are) searchable.
const HEAD_TOKENS = 8000;
const TAIL_TOKENS = 2000;
const MAX_FIELD_CHARS = 2_000_000;
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/** The step fields that are searched, in the order they are indexed and shown. */
export interface StepText {
  index?: number;
  action?: string | null;
  observation?: string | null;
  reasoning?: string | null;
  message?: string | null;
}
export const SEARCH_FIELDS = ["action", "observation", "reasoning", "message"] as const;

/** Lowercase letter/digit tokens with their position in `text` (overlong tokens such as base64 blobs are dropped). */
export function* tokenSpans(text: string): Generator<{ token: string; start: number; end: number }> {
  for (const m of text.matchAll(TOKEN_RE)) {
    if (m[0].length <= MAX_TOKEN_LENGTH) yield { token: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length };
  }
}

export function searchTokens(text: string): string[] {
  return Array.from(tokenSpans(text), (t) => t.token);
}

function capField(s: string): string {
  return s.length <= MAX_FIELD_CHARS ? s : `${s.slice(0, MAX_FIELD_CHARS * 0.75)}\n${s.slice(-MAX_FIELD_CHARS * 0.25)}`;
}

/** What gets indexed for one step: normalized tokens separated by spaces ("" when the step has no text). */
export function searchBody(step: StepText): string {
  // Appended one by one: spreading a field's tokens into push() overflows the stack for a field of megabytes.
  const tokens: string[] = [];
  for (const f of SEARCH_FIELDS) {
    const v = step[f];
    if (v) for (const t of tokenSpans(stripAnsi(capField(v)))) tokens.push(t.token);
  }
  const kept = tokens.length <= HEAD_TOKENS + TAIL_TOKENS ? tokens : tokens.slice(0, HEAD_TOKENS).concat(tokens.slice(-TAIL_TOKENS));
  return kept.join(" ");
}

export type SearchRow = { index: number; body: string };

/** Index rows for a trajectory's steps: (row id offset = step index, body), skipping steps without text. */
export function searchRows(steps: readonly StepText[]): SearchRow[] {
  const rows: SearchRow[] = [];
  steps.forEach((s, i) => {
    const index = s.index ?? i;
    const body = index < STEP_BITS ? searchBody(s) : "";
    if (body) rows.push({ index, body });
  });
  return rows;
}

/**
 * A trajectory's distinct words across its index rows, space-separated (PostgreSQL keeps them per trajectory as a
 * narrowing index for phrases and multi-word queries: see postgres.ts).
 */
export function docWords(rows: readonly SearchRow[]): string {
  const words = new Set<string>();
  for (const r of rows) for (const w of r.body.split(" ")) words.add(w);
  return [...words].join(" ");
}

/** A query term: one token, or a phrase of adjacent tokens; `prefix` makes the last token a prefix match. */
export interface SearchTerm {
  tokens: string[];
  prefix: boolean;
}
export interface ParsedSearch {
  terms: SearchTerm[];
}

const MAX_TERMS = 8;
const MAX_PHRASE = 16;

/**
 * Parse what a user typed: words (all must occur in the same step), "quoted phrases", and `word*` prefixes.
 * A word with punctuation (`ModuleNotFoundError:`, `--release`, `src/main.rs`) becomes the phrase of its tokens.
 * Returns null when nothing searchable is left.
 */
export function parseSearchQuery(q: string): ParsedSearch | null {
  const terms: SearchTerm[] = [];
  for (const m of q.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const quoted = m[1] !== undefined;
    const raw = (quoted ? m[1] : m[2]) ?? "";
    const tokens = searchTokens(raw).slice(0, MAX_PHRASE);
    if (!tokens.length) continue;
    terms.push({ tokens, prefix: !quoted && raw.endsWith("*") && tokens.at(-1)!.length >= 2 });
    if (terms.length === MAX_TERMS) break;
  }
  return terms.length ? { terms } : null;
}
