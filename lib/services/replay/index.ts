// The replay engine's one entry point for pages, route handlers and the CLI: manifests and event ranges of a
// trajectory's terminal replay (recorded or synthesized from steps), laying out replays after an import, the
// side-by-side comparison of recovery attempts and the verifier report. Everything else in this folder is internal.
export {
  clearReplaySessions,
  getReplayManifest,
  getReplayRange,
  replayRangeQuerySchema,
  setKeyframeBuilder,
  stopReplayWork,
  summarizeStep,
  warmReplayLayouts,
  type ReplayRangeQuery,
} from "./session.ts";
export { queueReplayLayouts, REPLAY_LAYOUTS_JOB } from "./layout-job.ts";
export { compareAttempts, compareLinkSchema, MAX_COMPARED, type AttemptComparison, type ComparedAttempt } from "./compare.ts";
export { getTestReport, type TestReport } from "./test-report.ts";
export {
  getStepSummaries,
  MAX_STEP_SUMMARIES,
  stepSummaryQuerySchema,
  type StepSummaryPage,
  type StepSummaryQuery,
} from "./step-summaries.ts";
export { getReplayOpening, OPENING_STEP_WINDOW, type ReplayOpening } from "./opening.ts";
export { getReplayScreen, replayScreenQuerySchema, type ReplayScreenQuery } from "./poster.ts";
