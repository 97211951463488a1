import Link from "next/link";
import type { StepMatch } from "@/lib/services/browse/search-trajectories";
import { stepHref } from "@/lib/validation/search-params";

const FIELD_LABEL: Record<StepMatch["field"], string> = {
  action: "command",
  observation: "output",
  reasoning: "reasoning",
  message: "message",
};

/** A search match: which step and field, and an excerpt with the matching words marked. Terminal text stays text. */
export function StepSnippet({ trajectoryId, match }: { trajectoryId: string; match: StepMatch }) {
  return (
    <Link
      href={stepHref(trajectoryId, match.stepIndex)}
      className="group flex min-w-0 items-baseline gap-2 text-xs"
      data-testid="search-match"
    >
      <span className="shrink-0 font-medium text-primary group-hover:underline">
        Step {match.stepIndex} · {FIELD_LABEL[match.field]}
      </span>
      <span className="min-w-0 truncate font-mono text-muted-foreground" data-testid="search-snippet">
        {match.parts.map((p, i) =>
          p.hit ? (
            <mark key={i} className="rounded-sm bg-warning/40 px-0.5 text-foreground">
              {p.text}
            </mark>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </span>
    </Link>
  );
}
