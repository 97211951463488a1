// Progress of a queue, per annotator, and recent skips with their reasons.
import type { QueueOverview } from "@/lib/services/annotation/manage-queues";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";

export function QueueProgressCard({ overview }: { overview: QueueOverview }) {
  const { progress: p, skips, queue } = overview;
  const pct = p.places ? Math.round((100 * p.done) / p.places) : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Progress</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-2">
        <div className="flex flex-col gap-2">
          <div className="h-2 overflow-hidden rounded bg-muted" aria-hidden>
            <div className="h-full bg-primary" style={{ width: `${pct}%` }} />
          </div>
          <p className="text-sm tabular-nums" data-testid="queue-progress">
            {p.done} of {p.places} label places done ({pct}%) · {p.reserved} reserved · {p.skipped} skipped
          </p>
          {p.perAnnotator.length === 0 ? <p className="text-sm text-muted-foreground">Nobody has started yet.</p> : null}
          <table className={p.perAnnotator.length ? "text-sm" : "hidden"}>
            <thead>
              <tr className="text-left text-xs text-muted-foreground">
                <th className="py-1">Annotator</th>
                <th>Done</th>
                <th>Reserved</th>
                <th>Skipped</th>
              </tr>
            </thead>
            <tbody>
              {p.perAnnotator.map((a) => (
                <tr key={a.annotatorId} className="tabular-nums">
                  <td className="py-0.5">{a.name}</td>
                  <td>{a.done}</td>
                  <td>{a.reserved}</td>
                  <td>{a.skipped}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="text-xs text-muted-foreground">Assigned: {queue.assignees.map((a) => a.name).join(", ") || "nobody yet"}</p>
        </div>
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Skipped</h3>
          {skips.length ? (
            <ul className="flex flex-col gap-1 text-sm">
              {skips.map((s, i) => (
                <li key={i}>
                  <span className="text-muted-foreground">
                    {formatDateTime(s.at)} · {s.annotator}:
                  </span>{" "}
                  {s.reason}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Nothing skipped.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
