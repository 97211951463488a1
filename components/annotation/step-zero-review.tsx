// Queue labels stored on step 0 (the task prompt) before queue items had a target: a count, and with the filter on,
// the list with where each belongs now (the item's fork point) and a link to fix it on the trajectory page.
import Link from "next/link";
import type { StepZeroLabel } from "@/lib/services/annotation/manage-queues";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";

export function StepZeroReview({ queueId, labels, open }: { queueId: string; labels: StepZeroLabel[]; open: boolean }) {
  if (!labels.length) return null;
  const base = `/annotation/queues/${encodeURIComponent(queueId)}`;
  return (
    <Card data-testid="step-zero-review">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>
          To review:{" "}
          <span className="tabular-nums" data-testid="step-zero-count">
            {labels.length}
          </span>{" "}
          label(s) stored on step 0 (the task prompt) from this queue
        </CardTitle>
        <Link href={open ? base : `${base}?review=step0`} className="text-xs underline-offset-2 hover:underline">
          {open ? "Hide" : "Show them"}
        </Link>
      </CardHeader>
      {open ? (
        <CardContent>
          <ul className="flex flex-col gap-1 text-sm">
            {labels.map((l) => (
              <li key={l.labelId}>
                <Link
                  className="font-medium underline-offset-2 hover:underline"
                  href={`/trajectories/${encodeURIComponent(l.trajectoryId)}${l.forkStep !== null ? `?step=${l.forkStep}` : ""}`}
                >
                  {l.taskName}
                </Link>
                <span className="text-muted-foreground">
                  {" "}
                  · {l.annotatorName} · {l.schemaKey} = {l.value} on step 0 ·{" "}
                  {l.forkStep !== null ? `belongs on the fork point after step ${l.forkStep}` : "no fork point"} ·{" "}
                  {formatDateTime(l.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
    </Card>
  );
}
