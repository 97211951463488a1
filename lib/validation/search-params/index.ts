// The trajectory browser's query (URL and API parameters): registry.ts (columns, filters, limits, the parsed query
// type), schemas.ts (strict API and tolerant URL schemas from one set of fields), cursor.ts (keyset cursors),
// serialize.ts (back to canonical URLs).
export {
  ANNOTATED,
  DEFAULT_PER_PAGE,
  DEFAULT_SORT,
  isTrajectoryColumnId,
  MAX_PER_PAGE,
  MAX_SORT_KEYS,
  NO_ERROR,
  type NumberRange,
  type PageCursor,
  RECOVERED_NEVER,
  type SortPart,
  TRAJECTORY_COLUMN_IDS,
  TRAJECTORY_COLUMNS,
  TRAJECTORY_FILTERS,
  TRAJECTORY_SORTS,
  type TrajectoryColumnId,
  type TrajectoryFilterKey,
  type TrajectoryListQuery,
  type TrajectorySortId,
  YES_NO,
} from "./registry.ts";
export { decodeCursor, encodeCursor } from "./cursor.ts";
export {
  type RawParams,
  type SearchQueryParams,
  searchQuerySchema,
  trajectoryApiQuerySchema,
  trajectoryListQuerySchema,
  trajectoryListUrlSchema,
} from "./schemas.ts";
export { firstValues, formatRange, hasFilters, paramsFromSearch, stepHref, trajectoryQueryToParams, updateQuery } from "./serialize.ts";
