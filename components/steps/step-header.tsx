import { AlertTriangle, Copy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { formatDuration } from "@/lib/format";
import type { StepView } from "@/lib/services/browse/view-trajectory";

export function StepHeader({ step, label }: { step: StepView; label: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
      <span className="font-mono font-semibold text-foreground">#{step.index}</span>
      <span>{label}</span>
      {step.offsetMs !== null ? <span className="tabular-nums">+{formatDuration(step.offsetMs)}</span> : null}
      {step.exitCode !== null ? <Badge variant={step.exitCode === 0 ? "outline" : "destructive"}>exit {step.exitCode}</Badge> : null}
      {step.isError ? (
        <Badge variant="warning">
          <AlertTriangle className="size-3" aria-hidden /> error detected
        </Badge>
      ) : null}
      {step.isCopiedContext ? (
        <Badge variant="outline" title="Copied from the parent trajectory (shared prefix before the fork)">
          <Copy className="size-3" aria-hidden /> shared prefix
        </Badge>
      ) : null}
    </div>
  );
}
