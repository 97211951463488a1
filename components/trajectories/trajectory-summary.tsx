import Link from "next/link";
import type { TrajectoryDetail } from "@/lib/services/view-trajectory";
import { Card, CardContent } from "@/components/ui/card";
import { formatDateTime, formatDuration, formatReward } from "@/lib/format";
import { OutcomeBadge } from "./outcome-badge";
import { ImportWarningsBadge } from "./import-warnings";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

export function TrajectorySummary({ t }: { t: TrajectoryDetail }) {
  return (
    <Card>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-6">
          <Field label="Outcome">
            <span className="flex flex-wrap items-center gap-1.5">
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
            <span className="block text-xs text-muted-foreground">
              {t.run.model ?? "—"} · {t.run.checkpoint ?? "—"} · {t.run.trainingMethod ?? "—"}
            </span>
          </Field>
          <Field label="Started">{formatDateTime(t.startedAt)}</Field>
          <Field label="Source">
            {t.sourceFormat}
            {t.sourceFile ? <span className="block truncate text-xs text-muted-foreground" title={t.sourceFile}>{t.sourceFile}</span> : null}
          </Field>
          {t.failureMode ? <Field label="Failure mode">{t.failureMode}</Field> : null}
        </dl>
        {t.task.instruction ? <p className="mt-4 border-t pt-3 text-sm whitespace-pre-wrap text-muted-foreground">{t.task.instruction}</p> : null}
      </CardContent>
    </Card>
  );
}
