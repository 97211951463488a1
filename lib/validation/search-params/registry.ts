// The trajectory browser's query, one registry for everything else in this folder: the columns (display order, sort
// keys, value kinds), the filters, the paging limits, and the parsed query type services and repositories take.
import type { OUTCOMES } from "../../domain/trajectory.ts";

/** Column registry, in display order. Every column sorts; ids double as sort keys (lib/db maps them to SQL). */
export const TRAJECTORY_COLUMN_IDS = [
  "task",
  "run",
  "outcome",
  "reward",
  "stepCount",
  "durationMs",
  "firstError",
  "forkPointCount",
  "attemptCount",
  "recoveryRate",
  "annotations",
  "importedAt",
] as const;
export type TrajectoryColumnId = (typeof TRAJECTORY_COLUMN_IDS)[number];

export function isTrajectoryColumnId(id: string): id is TrajectoryColumnId {
  return (TRAJECTORY_COLUMN_IDS as readonly string[]).includes(id);
}

export const TRAJECTORY_COLUMNS = {
  task: { label: "Task", hideable: false, width: 190, filter: "taskId", value: "text" },
  run: { label: "Run", hideable: true, width: 150, filter: "runId", value: "text" },
  outcome: { label: "Outcome", hideable: true, width: 100, filter: "outcome", value: "text" },
  reward: { label: "Reward", hideable: true, width: 72, filter: "reward", value: "number" },
  stepCount: { label: "Steps", hideable: true, width: 62, filter: "steps", value: "number" },
  durationMs: { label: "Duration", hideable: true, width: 82, filter: "duration", value: "number" },
  firstError: { label: "First error", hideable: true, width: 142, filter: "error", value: "text" },
  forkPointCount: { label: "Forks", hideable: true, width: 64, filter: "forks", value: "number" },
  attemptCount: { label: "Attempts", hideable: true, width: 96, filter: "attempt", value: "number" },
  recoveryRate: { label: "Recovered", hideable: true, width: 82, filter: null, value: "number" },
  annotations: { label: "Labels", hideable: true, width: 168, filter: "annotated", value: "number" },
  importedAt: { label: "Imported", hideable: true, width: 140, filter: null, value: "date" },
} as const satisfies Record<
  TrajectoryColumnId,
  { label: string; hideable: boolean; width: number; filter: TrajectoryFilterKey | null; value: "text" | "number" | "date" }
>;

/** Facets and ranges the browser filters on. `multi` take several values, `choice` one of a few, `range` min..max. */
export const TRAJECTORY_FILTERS = {
  runId: { label: "Run", variant: "multi" },
  model: { label: "Model", variant: "multi" },
  taskId: { label: "Task", variant: "multi" },
  category: { label: "Task category", variant: "multi" },
  outcome: { label: "Outcome", variant: "multi" },
  error: { label: "Error category", variant: "multi" },
  forks: { label: "Has fork points", variant: "choice" },
  attempt: { label: "Recovery attempt", variant: "choice" },
  annotated: { label: "Annotated by", variant: "choice" },
  warnings: { label: "Import warnings", variant: "choice" },
  datasetId: { label: "Dataset", variant: "multi" },
  reward: { label: "Reward", variant: "range" },
  steps: { label: "Steps", variant: "range" },
  duration: { label: "Duration (s)", variant: "range" },
  // Recovery attempts by the error category of their fork point (labelled, else detected) — analytics drill-down
  forkError: { label: "Fork-point error", variant: "multi" },
  // Error-category values of people's labels (an annotator in blind mode counts and filters on their own)
  label: { label: "Label", variant: "multi" },
  // Analytics distributions drill down with these. The last three pick ONE row per fork point (a sibling
  // group of attempts), so the table's count equals the number of fork points in the chart's bar.
  firstErrorStep: { label: "First error at step", variant: "range" },
  recovered: { label: "Recovered at attempt", variant: "choice" },
  groupReward: { label: "Sibling-group mean reward", variant: "range" },
  groupSpread: { label: "Sibling rewards differ", variant: "choice" },
  // Annotation-progress drill-down — trajectories with a label of these schemas made on these UTC days
  labelSchema: { label: "Label schema", variant: "multi" },
  labelledAt: { label: "Labelled on", variant: "range" },
  /** Failure-mode drill-down: trajectories with a failing step of one of these modes (signature template hashes). */
  mode: { label: "Failure mode", variant: "multi" },
} as const;
export type TrajectoryFilterKey = keyof typeof TRAJECTORY_FILTERS;

export const TRAJECTORY_SORTS = TRAJECTORY_COLUMN_IDS;
export type TrajectorySortId = TrajectoryColumnId;
export const DEFAULT_SORT: SortPart[] = [{ id: "importedAt", desc: true }];
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;
export const MAX_SORT_KEYS = 3;
/** "No first error" in the error facet. */
export const NO_ERROR = "none";
export const YES_NO = ["yes", "no"] as const;
export const ANNOTATED = ["me", "anyone", "nobody"] as const;
/** `recovered`: the 1-based attempt that first succeeded, or "never" (known-outcome attempts, none succeeded). */
export const RECOVERED_NEVER = "never";

export interface SortPart {
  id: TrajectorySortId;
  desc: boolean;
}
export interface NumberRange {
  min?: number;
  max?: number;
}
/** Keyset position: the sort values and id of the row to continue after (or before). */
export interface PageCursor {
  dir: "after" | "before";
  values: (string | number | null)[];
  id: string;
}

/** The parsed browser query that services and repositories take. */
export interface TrajectoryListQuery {
  q?: string;
  runId: string[];
  taskId: string[];
  model: string[];
  category: string[];
  outcome: (typeof OUTCOMES)[number][];
  error: string[];
  datasetId: string[];
  /** Attempts whose fork point has one of these error categories ("none" = uncategorized). */
  forkError: string[];
  /** Trajectories with a human `error-category` label of one of these values. */
  label: string[];
  forks?: (typeof YES_NO)[number];
  attempt?: (typeof YES_NO)[number];
  annotated?: (typeof ANNOTATED)[number];
  /** "yes": imported with warnings (part of its source could not be read). */
  warnings?: (typeof YES_NO)[number];
  reward?: NumberRange;
  steps?: NumberRange;
  duration?: NumberRange;
  /** 0-based step of the first error within this range. */
  firstErrorStep?: NumberRange;
  /**
   * One row per fork point whose first successful attempt (within the run/model/category filters) is this
   * 1-based attempt — that attempt; "never": fork points with known-outcome attempts and no success — their first
   * known-outcome attempt (smallest id).
   */
  recovered?: string;
  /** One row per sibling group (its first rewarded attempt by id) whose mean reward is in [min, max) — max exclusive, like the histogram's buckets. */
  groupReward?: NumberRange;
  /** With groupReward — "no": two or more rewarded attempts that all got the same reward; "yes": the rest. */
  groupSpread?: (typeof YES_NO)[number];
  /** Trajectories with a label of one of these schemas (keys) — with labelledAt, made in that period. */
  labelSchema: string[];
  /** Failure modes (FailureSignature.templateHash): trajectories with a failing step at one of them. */
  mode: string[];
  /** "FROM..TO" UTC days, TO excluded: trajectories with a label made in that period. */
  labelledAt?: string;
  sort: SortPart[];
  page: number;
  perPage: number;
  cursor?: PageCursor;
  /** Visible columns; undefined = the defaults. */
  cols?: TrajectoryColumnId[];
}
