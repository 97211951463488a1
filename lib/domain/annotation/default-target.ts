/**
 * Where a label goes when the annotator has not chosen a target: the place the work is about, never the task prompt
 * (step 0) by accident. A fork point when the schema labels fork points and the trajectory has one; the attempt for a
 * recovery attempt; else the step the annotator accepted a suggestion on, or the first detected error; else the whole
 * trajectory; else the last step (where a failed run ended). Pure: the facts come from the caller.
 */
import type { TargetType } from "./label-schema.ts";
import type { TargetInput } from "./targets.ts";

export interface TargetContext {
  isAttempt: boolean;
  stepCount: number;
  /** Fork points of this trajectory (step indices, any order). */
  forkSteps: readonly number[];
  firstErrorStep: number | null;
  /** The step of a suggestion this annotator accepted on this trajectory, if any. */
  acceptedStep: number | null;
}

export interface DefaultTarget {
  type: TargetType;
  input: TargetInput;
  /** The step the replay opens at for this target (null: the whole trajectory or attempt). */
  step: number | null;
}

export function defaultTarget(allowed: readonly TargetType[], c: TargetContext): DefaultTarget | null {
  const inRange = (s: number | null) => (s !== null && s >= 0 && s < c.stepCount ? s : null);
  const fork = c.forkSteps.length ? Math.min(...c.forkSteps) : null;
  if (fork !== null && allowed.includes("fork_point")) return { type: "fork_point", input: { forkStep: fork }, step: fork };
  if (c.isAttempt && allowed.includes("attempt")) return { type: "attempt", input: {}, step: null };
  const step = inRange(c.acceptedStep) ?? inRange(c.firstErrorStep);
  if (step !== null && allowed.includes("step_range")) return { type: "step_range", input: { steps: [step, step] }, step };
  if (!c.isAttempt && allowed.includes("trajectory")) return { type: "trajectory", input: {}, step: null };
  if (allowed.includes("step_range") && c.stepCount > 0) {
    const last = c.stepCount - 1;
    return { type: "step_range", input: { steps: [last, last] }, step: last };
  }
  return null;
}

/** What happened at a step, for the target's words: its first command line and exit code. */
export interface StepGist {
  action: string | null;
  exitCode: number | null;
}

const GIST_CHARS = 60;

/** The target in words: "fork point after step 9 · rg -n 'def parse' → exit 127". */
export function targetWords(t: { type: TargetType; step: number | null; stepEnd?: number | null }, gist?: StepGist | null): string {
  let head: string;
  switch (t.type) {
    case "fork_point":
      head = `fork point after step ${t.step}`;
      break;
    case "step_range":
      head = t.stepEnd != null && t.stepEnd !== t.step ? `steps ${t.step}–${t.stepEnd}` : `step ${t.step}`;
      break;
    case "attempt":
      return "this recovery attempt";
    default:
      return "the whole trajectory";
  }
  const line = gist?.action
    ?.split("\n")
    .find((l) => l.trim())
    ?.trim();
  if (!line && gist?.exitCode == null) return head;
  const cmd = line ? (line.length > GIST_CHARS ? `${line.slice(0, GIST_CHARS - 1)}…` : line) : "";
  const exit = gist?.exitCode != null ? `→ exit ${gist.exitCode}` : "";
  return `${head} · ${[cmd, exit].filter(Boolean).join(" ")}`;
}
