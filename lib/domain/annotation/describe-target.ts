/**
 * A label's target in words, for every place that names one (the labelling panel, queue items, disagreements,
 * adjudication, history): "fork point after step 9 · rg -n 'def parse' → exit 127", "steps 3–5", "whole trajectory".
 * The one formatter: lists and panels pass the stored target, and the step summaries they have, if any.
 */

/** A stored target: its kind and the steps it covers (a fork point's step is its stepStart). */
export interface DescribableTarget {
  targetType: string;
  stepStart: number | null;
  stepEnd: number | null;
}

/** What a step's line says: its first command line and exit status (StepSummary fits). */
export interface StepBrief {
  index: number;
  command: string | null;
  exitCode: number | null;
}

/** Commands longer than this are cut with an ellipsis: the description is one line. */
const MAX_COMMAND = 60;

function stepDetail(step: StepBrief | undefined): string {
  if (!step) return "";
  const cmd = step.command?.trim();
  const short = cmd && cmd.length > MAX_COMMAND ? `${cmd.slice(0, MAX_COMMAND - 1)}…` : cmd;
  const exit = step.exitCode !== null ? `exit ${step.exitCode}` : "";
  if (short && exit) return ` · ${short} → ${exit}`;
  return short ? ` · ${short}` : exit ? ` · ${exit}` : "";
}

/**
 * `steps` (optional) adds the command and exit status of the one step the target points at: a fork point's step or
 * a one-step range. A range of several steps, the whole trajectory and an attempt are named without them.
 */
export function describeTarget(t: DescribableTarget, steps?: readonly StepBrief[]): string {
  const find = (i: number | null) => (i === null || !steps ? undefined : steps.find((s) => s.index === i));
  switch (t.targetType) {
    case "step_range":
      if (t.stepStart === null) return "step range";
      if (t.stepEnd === null || t.stepEnd === t.stepStart) return `step ${t.stepStart}${stepDetail(find(t.stepStart))}`;
      return `steps ${t.stepStart}–${t.stepEnd}`;
    case "fork_point":
      return t.stepStart === null ? "fork point" : `fork point after step ${t.stepStart}${stepDetail(find(t.stepStart))}`;
    case "attempt":
      return "recovery attempt";
    default:
      return "whole trajectory";
  }
}
