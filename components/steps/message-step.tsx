import type { StepView } from "@/lib/services/browse/view-trajectory";
import { StepHeader } from "./step-header";

/** A user/system turn: the task prompt, harness feedback, context-management notes. */
export function MessageStep({ step }: { step: StepView }) {
  return (
    <div className="flex flex-col gap-2">
      <StepHeader step={step} label={step.source} />
      <p className="max-h-64 overflow-auto text-sm whitespace-pre-wrap">{step.message ?? step.observation ?? ""}</p>
    </div>
  );
}
