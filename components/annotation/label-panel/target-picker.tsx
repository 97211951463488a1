// Schema and target of the label being written, and the target in words ("fork point after step 9 · rg … → exit 127"):
// the annotator sees where Enter will put the label before pressing it.
import type { Dispatch } from "react";
import type { LabelSchemaView } from "@/lib/domain/annotation/label-schema";
import { targetWords } from "@/lib/domain/annotation/default-target";
import type { Target } from "@/lib/domain/annotation/targets";
import { Badge } from "@/components/ui/badge";
import type { Mode, PanelAction, PanelState } from "./state";

export function TargetPicker({
  s,
  dispatch,
  schemas,
  schema,
  mode,
  forkSteps,
  isAttempt,
  stepCount,
  queueKeys,
}: {
  s: PanelState;
  dispatch: Dispatch<PanelAction>;
  schemas: LabelSchemaView[];
  schema: LabelSchemaView;
  mode: Mode;
  forkSteps: number[];
  isAttempt: boolean;
  stepCount: number;
  queueKeys: string[] | null;
}) {
  const forkChoices = [...new Set([...(s.fork !== null ? [s.fork] : []), ...(forkSteps.includes(s.cursor) ? [s.cursor] : [])])];
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label className="flex items-center gap-1">
        <span className="text-muted-foreground">Schema</span>
        <select
          className="h-8 max-w-48 rounded-md border bg-background px-2"
          value={s.schemaIdx}
          onChange={(e) => dispatch({ type: "schema", idx: Number(e.target.value) })}
        >
          {schemas.map((x, i) => (
            <option key={x.id} value={i}>
              {x.name}
              {queueKeys?.includes(x.key) ? " (queue)" : ""}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        <span className="text-muted-foreground">Target</span>
        <select
          className="h-8 rounded-md border bg-background px-2"
          value={mode}
          onChange={(e) => dispatch({ type: "mode", mode: e.target.value as Mode })}
        >
          {schema.targets.includes("step_range") ? (
            <option value="range">
              Steps {s.range[0]}–{s.range[1]}
            </option>
          ) : null}
          {schema.targets.includes("fork_point") && forkChoices.length ? (
            <option value="fork">Fork point at step {mode === "fork" && s.fork !== null ? s.fork : forkChoices[0]}</option>
          ) : null}
          {schema.targets.includes("trajectory") || (isAttempt && schema.targets.includes("attempt")) ? (
            <option value="whole">{isAttempt && schema.targets.includes("attempt") ? "This attempt" : "Whole trajectory"}</option>
          ) : null}
        </select>
      </label>
      {schema.targets.includes("step_range") ? (
        // Dimmed while the target is not a step range; editing them makes it one.
        <span
          className={`flex items-center gap-1 text-muted-foreground ${mode === "range" ? "" : "opacity-60"}`}
          title={mode === "range" ? undefined : "Editing the range (or [ and ]) makes the target this step range"}
        >
          cursor{" "}
          <Badge variant="outline" data-testid="step-cursor">
            step {s.cursor}
          </Badge>
          <input
            aria-label="Range start"
            type="number"
            min={0}
            max={stepCount - 1}
            value={s.range[0]}
            onChange={(e) => dispatch({ type: "range", range: [Number(e.target.value), Math.max(s.range[1], Number(e.target.value))] })}
            className="h-8 w-16 rounded-md border bg-background px-2"
          />
          –
          <input
            aria-label="Range end"
            type="number"
            min={0}
            max={stepCount - 1}
            value={s.range[1]}
            onChange={(e) => dispatch({ type: "range", range: [Math.min(s.range[0], Number(e.target.value)), Number(e.target.value)] })}
            className="h-8 w-16 rounded-md border bg-background px-2"
          />
        </span>
      ) : null}
    </div>
  );
}

/** The target in words: the server's (with the command and exit code) while it is the default, else built here. */
export function TargetLine({ target, defaultWords }: { target: Target | null; defaultWords: string | null }) {
  if (!target) return null;
  const words =
    defaultWords ??
    targetWords({ type: target.type, step: target.type === "fork_point" ? target.forkStep : target.stepStart, stepEnd: target.stepEnd });
  return (
    <p
      className="truncate rounded-md border bg-muted/40 px-2 py-1 font-mono text-xs"
      data-testid="label-target"
      data-target-key={target.key}
      title={words}
    >
      <span className="font-sans text-muted-foreground">Target · </span>
      {words}
    </p>
  );
}
