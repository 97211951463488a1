// The commands each attempt ran after the fork, diffed against the first attempt: "=" both, "−" only in the
// first, "+" only in the other.
import type { AttemptComparison } from "@/lib/services/replay";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

const SIGN = { same: "=", removed: "−", added: "+" } as const;

export function CommandDiff({ comparison }: { comparison: AttemptComparison }) {
  const [base, ...others] = comparison.attempts;
  if (!base || !others.length) return null;
  return (
    <Card data-testid="command-diff">
      <CardHeader>
        <CardTitle>Command diff after the fork</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 lg:grid-cols-2">
        {others.map((o, i) => (
          <div key={o.id} className="min-w-0">
            <p className="mb-1.5 text-xs text-muted-foreground">
              Attempt #{(base.attemptIndex ?? 0) + 1} (−) → attempt #{(o.attemptIndex ?? i + 1) + 1} (+)
            </p>
            <ol className="overflow-auto rounded-md border font-mono text-xs">
              {comparison.diffs[i]!.map((op, k) => (
                <li
                  key={k}
                  data-kind={op.kind}
                  className={cn(
                    "flex gap-2 px-2 py-0.5 whitespace-pre",
                    op.kind === "removed" && "bg-destructive/10 text-destructive",
                    op.kind === "added" && "bg-success/10 text-success",
                  )}
                >
                  <span aria-hidden className="w-3 shrink-0 select-none">
                    {SIGN[op.kind]}
                  </span>
                  <span className="sr-only">
                    {op.kind === "same" ? "in both:" : op.kind === "removed" ? "only in the first:" : "only in this one:"}
                  </span>
                  <span className="truncate">{op.text}</span>
                </li>
              ))}
            </ol>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
