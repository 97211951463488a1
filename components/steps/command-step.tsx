import type { StepView } from "@/lib/services/browse/view-trajectory";
import { StepHeader } from "./step-header";
import { TerminalText } from "./terminal-text";

/** An agent turn that ran commands: reasoning, the commands, and the terminal output. */
export function CommandStep({ step }: { step: StepView }) {
  return (
    <div className="flex flex-col gap-2">
      <StepHeader step={step} label={step.source} />
      {step.reasoning || step.message ? (
        <p className="text-sm whitespace-pre-wrap text-muted-foreground">{step.reasoning ?? step.message}</p>
      ) : null}
      {step.action ? (
        <pre
          data-testid="step-command"
          className="overflow-auto rounded-md border bg-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap"
        >
          <span className="select-none text-muted-foreground">$ </span>
          {step.action}
        </pre>
      ) : null}
      {step.observation ? <TerminalText text={step.observation} testId="step-output" maxChars={3000} /> : null}
    </div>
  );
}
