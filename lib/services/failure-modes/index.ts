export { listFailureModes, type FailureMode, type FailureModeList } from "./list-failure-modes.ts";
export { compareFailureModes, type FailureModeComparison, type ModeChange } from "./compare-failure-modes.ts";
export { reindexFailureModes } from "./reindex-failure-modes.ts";
export { suggestModeCategory, FAILURE_MODE_SOURCE, type ModeSuggestionResult } from "./suggest-mode-category.ts";
