// Terminal-aware full-text search over steps, behind one interface for both databases: what is indexed and how a
// query is parsed (text.ts, pure), querying (read.ts) and writing (write.ts) the index, each database's SQL in
// sqlite.ts (FTS5) and postgres.ts (tsvector + GIN) behind provider.ts.
export {
  MAX_TOKEN_LENGTH,
  parseSearchQuery,
  searchBody,
  searchRows,
  searchTokens,
  tokenSpans,
  SEARCH_FIELDS,
  STEP_BITS,
  type ParsedSearch,
  type SearchRow,
  type SearchTerm,
  type StepText,
} from "./text.ts";
export type { SearchForm } from "./provider.ts";
export {
  findFirstMatchingSteps,
  findStepHits,
  findStepTexts,
  isCommonSearch,
  searchCandidateEstimate,
  searchFilterSql,
  searchKeyedMatchSql,
  searchMatchRowsSql,
  searchStepMatchesUpTo,
  searchVerifySql,
  type StepHitRef,
} from "./read.ts";
export {
  indexAllMissing,
  indexMissingAfter,
  indexMissingTrajectories,
  indexStepsForSearch,
  indexTrajectoriesForSearch,
  reindexSearch,
  removeFromSearchIndex,
  searchIndexLag,
  type IndexCursor,
} from "./write.ts";
export { ftsMatchExpression } from "./sqlite.ts";
export { tsQueryExpression } from "./postgres.ts";
