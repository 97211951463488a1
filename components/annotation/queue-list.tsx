// Queues with their progress; annotators see only those assigned to them.
import Link from "next/link";
import type { QueueSummary } from "@/lib/services/annotation/manage-queues";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { StartQueueButton } from "./start-queue-button";

export function QueueList({ queues }: { queues: QueueSummary[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Queue</TableHead>
          <TableHead>Schemas</TableHead>
          <TableHead className="text-right">Items</TableHead>
          <TableHead>Progress</TableHead>
          <TableHead />
        </TableRow>
      </TableHeader>
      <TableBody>
        {queues.map(({ queue: q, progress: p }) => {
          const pct = p.places ? Math.round((100 * p.done) / p.places) : 0;
          return (
            <TableRow key={q.id}>
              <TableCell>
                <Link className="font-medium text-primary hover:underline" href={`/annotation/queues/${q.id}`}>
                  {q.name}
                </Link>
                {q.blind ? (
                  <Badge variant="outline" className="ml-2">
                    blind
                  </Badge>
                ) : null}
              </TableCell>
              <TableCell className="text-muted-foreground">{q.schemaKeys.join(", ")}</TableCell>
              <TableCell className="text-right tabular-nums">
                {q.itemCount} × {q.labelsPerItem}
              </TableCell>
              <TableCell>
                <div className="flex items-center gap-2">
                  <div className="h-2 w-32 overflow-hidden rounded bg-muted" aria-hidden>
                    <div className="h-full bg-primary" style={{ width: `${pct}%` }} />
                  </div>
                  <span className="text-xs tabular-nums text-muted-foreground">
                    {p.done}/{p.places} ({pct}%)
                  </span>
                </div>
              </TableCell>
              <TableCell className="text-right">
                <StartQueueButton queueId={q.id} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
