// Choose which attempts of the fork to compare: a plain GET form, so it works before any JavaScript loads.
import { Button } from "@/components/ui/button";
import { formatReward } from "@/lib/format";
import type { AttemptComparison } from "@/lib/services/replay";

export function AttemptPicker({ comparison }: { comparison: AttemptComparison }) {
  const chosen = new Set(comparison.attempts.map((a) => a.id));
  return (
    <form
      method="get"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 rounded-lg border bg-card p-2 text-xs"
      aria-label="Attempts to compare"
    >
      <input type="hidden" name="fork" value={comparison.forkStepIndex} />
      <span className="text-muted-foreground">Attempts:</span>
      {comparison.available.map((a, i) => (
        <label key={a.id} className="flex items-center gap-1">
          <input type="checkbox" name="attempts" value={a.id} defaultChecked={chosen.has(a.id)} className="size-3.5" />#
          {(a.attemptIndex ?? i) + 1}
          <span className={a.outcome === "passed" ? "text-success" : a.outcome === "failed" ? "text-destructive" : "text-muted-foreground"}>
            {a.outcome}
          </span>
          <span className="text-muted-foreground">r={formatReward(a.reward)}</span>
        </label>
      ))}
      <Button type="submit" size="sm" variant="outline" className="ml-auto h-7">
        Compare
      </Button>
    </form>
  );
}
