import Link from "next/link";
import type { TrajectoryDetail } from "@/lib/services/browse/view-trajectory";
import { Card, CardContent } from "@/components/ui/card";
import { formatDateTime, formatDuration, formatReward } from "@/lib/format";
import { OutcomeBadge } from "./outcome-badge";
import { ImportWarningsBadge } from "./import-warnings";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/**
 * The trajectory's facts as one compact strip (labels beside values, wrapping as needed), the task instruction
 * folded under its first line: the replay below has to start within the first screen.
 */
export function TrajectorySummary({ t }: { t: TrajectoryDetail }) {
  const instruction = t.task.instruction?.trim();
  const firstLine = instruction?.split("\n", 1)[0];
  return (
    <Card>
      <CardContent className="px-4 py-2.5">
        <dl className="flex flex-wrap items-baseline gap-x-5 gap-y-1.5">
          <Field label="Outcome">
            <span className="inline-flex flex-wrap items-center gap-1.5 align-middle">
              <OutcomeBadge outcome={t.outcome} />
              <ImportWarningsBadge count={t.warningCount} />
            </span>
          </Field>
          <Field label="Reward">{formatReward(t.reward)}</Field>
          <Field label="Steps">{t.stepCount}</Field>
          <Field label="Duration">{formatDuration(t.durationMs)}</Field>
          <Field label="Run">
            <Link prefetch={false} className="hover:underline" href={`/trajectories?runId=${t.run.id}`}>
              {t.run.name}
            </Link>
            <span className="text-xs text-muted-foreground">
              {" "}
              ({t.run.model ?? "—"} · {t.run.checkpoint ?? "—"} · {t.run.trainingMethod ?? "—"})
            </span>
          </Field>
          <Field label="Started">{formatDateTime(t.startedAt)}</Field>
          <Field label="Source">
            {t.sourceFormat}
            {t.sourceFile ? (
              <span className="ml-1.5 inline-block max-w-64 truncate align-bottom text-xs text-muted-foreground" title={t.sourceFile}>
                {t.sourceFile}
              </span>
            ) : null}
          </Field>
          {t.failureMode ? <Field label="Failure mode">{t.failureMode}</Field> : null}
        </dl>
        {instruction ? (
          <details className="group mt-2 border-t pt-2 text-sm text-muted-foreground">
            <summary className="cursor-pointer truncate group-open:whitespace-normal" title="Show the whole task instruction">
              <span className="text-xs">Instruction</span> <span className="group-open:hidden">{firstLine}</span>
            </summary>
            <p className="mt-1 whitespace-pre-wrap">{instruction}</p>
          </details>
        ) : null}
      </CardContent>
    </Card>
  );
}
