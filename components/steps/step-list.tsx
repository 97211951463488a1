import type { StepView } from "@/lib/services/browse/view-trajectory";
import { cn } from "@/lib/utils";
import { CommandStep } from "./command-step";
import { MessageStep } from "./message-step";

export function StepList({ steps, forkSteps }: { steps: StepView[]; forkSteps: Set<number> }) {
  return (
    <ol className="flex flex-col gap-3" aria-label="Steps">
      {steps.map((s) => (
        <li
          key={s.index}
          id={`step-${s.index}`}
          data-testid="step"
          className={cn(
            "scroll-mt-4 rounded-lg border bg-card p-3",
            s.isError && "border-l-4 border-l-warning",
            forkSteps.has(s.index) && "ring-2 ring-primary/50",
            s.isCopiedContext && "opacity-80",
          )}
        >
          {s.action || s.source === "agent" ? <CommandStep step={s} /> : <MessageStep step={s} />}
          {forkSteps.has(s.index) ? (
            <p className="mt-2 text-xs font-medium text-primary">Fork point: recovery attempts branch after this step</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
