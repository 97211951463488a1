/**
 * Default label schemas: the error taxonomy (diagnosis layer, anchored to steps) and the recovery-quality scale.
 * Derived from what practitioners detect and label (see docs/architecture.md). Seeded into LabelSchema on migrate.
 */
export interface LabelOption {
  value: string;
  label: string;
  description?: string;
  hotkey?: string;
}

export interface LabelSchemaDefinition {
  key: string;
  name: string;
  description: string;
  kind: "categorical" | "ordinal" | "boolean" | "text" | "ranking";
  targets: ("trajectory" | "step_range" | "fork_point" | "attempt")[];
  options: LabelOption[];
}

export const ERROR_CATEGORIES = [
  {
    value: "command-error",
    label: "Command error",
    description: "Non-zero exit, command not found, shell syntax error, usage output",
    hotkey: "1",
  },
  {
    value: "missing-dependency",
    label: "Missing dependency",
    description: "ModuleNotFoundError, missing library, package manager failure",
    hotkey: "2",
  },
  {
    value: "file-permission",
    label: "File / path / permission",
    description: "No such file, permission denied, read-only file system",
    hotkey: "3",
  },
  { value: "runtime-exception", label: "Runtime exception", description: "Traceback, stack trace, segfault, panic", hotkey: "4" },
  { value: "test-failure", label: "Failing tests / build", description: "Test summaries with failures, compiler errors", hotkey: "5" },
  {
    value: "hang",
    label: "Hang / interactive prompt",
    description: "Command never returned, pager/editor left open, y/n prompt, heredoc",
    hotkey: "6",
  },
  { value: "timeout", label: "Timeout", description: "Command or agent time limit reached", hotkey: "7" },
  {
    value: "wrong-implementation",
    label: "Wrong implementation",
    description: "Runs cleanly but does the wrong thing (silent failure)",
    hotkey: "8",
  },
  { value: "unaddressed-error", label: "Unaddressed error", description: "An error is visible and the next step ignores it", hotkey: "9" },
  { value: "repetition-loop", label: "Repetition loop", description: "Same command or edit repeated with the same result", hotkey: "q" },
  { value: "premature-completion", label: "Premature completion", description: "Declared done while errors remain", hotkey: "w" },
  {
    value: "meta-control",
    label: "Meta-control failure",
    description: "No progress tracking, no pivot, no verification of the deliverable",
    hotkey: "e",
  },
  { value: "format-error", label: "Agent format / parse error", description: "The harness could not parse the model's reply", hotkey: "r" },
  {
    value: "harness-error",
    label: "Harness / infrastructure",
    description: "Environment build, API or context-length failure",
    hotkey: "t",
  },
  {
    value: "task-invalid",
    label: "Invalid task / brittle verifier",
    description: "Task unsolvable as stated, broken env, exploitable or misaligned tests — exclude from training",
    hotkey: "y",
  },
] as const satisfies readonly LabelOption[];

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number]["value"];

export const RECOVERY_QUALITY = [
  { value: "0", label: "No recovery", description: "Attempt repeats the failure or makes it worse", hotkey: "0" },
  { value: "1", label: "Partial", description: "Addresses the error but does not finish the task", hotkey: "1" },
  { value: "2", label: "Recovered, clumsy", description: "Finishes the task with wasted or risky steps", hotkey: "2" },
  { value: "3", label: "Clean recovery", description: "Diagnoses the error and pivots efficiently — SFT-worthy", hotkey: "3" },
] as const satisfies readonly LabelOption[];

export const DEFAULT_LABEL_SCHEMAS: LabelSchemaDefinition[] = [
  {
    key: "error-category",
    name: "Error category",
    description: "Why the agent failed at this step (diagnosis layer).",
    kind: "categorical",
    targets: ["trajectory", "step_range", "fork_point"],
    options: [...ERROR_CATEGORIES],
  },
  {
    key: "recovery-quality",
    name: "Recovery quality",
    description: "How good a recovery attempt is, from no recovery (0) to clean recovery (3).",
    kind: "ordinal",
    targets: ["attempt"],
    options: [...RECOVERY_QUALITY],
  },
  // Whether a recovery attempt may become SFT data (the rationale goes in the label's comment).
  {
    key: "sft-usable",
    name: "Usable as SFT demonstration",
    description: "Would you train on this attempt as a demonstration of recovering from the error?",
    kind: "boolean",
    targets: ["attempt"],
    options: [
      { value: "true", label: "Yes", hotkey: "y" },
      { value: "false", label: "No", hotkey: "n" },
    ],
  },
  // The attempts of one fork point ranked best → worst in the sibling compare view (value: attempt ids).
  {
    key: "attempt-ranking",
    name: "Attempt ranking",
    description: "Order the recovery attempts of one fork point from best to worst recovery.",
    kind: "ranking",
    targets: ["fork_point"],
    options: [],
  },
];

export function errorCategoryLabel(value: string | null | undefined): string {
  if (!value) return "—";
  return ERROR_CATEGORIES.find((c) => c.value === value)?.label ?? value;
}
