import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { JobSummary } from "@/lib/services/jobs/list-jobs";

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 19) : "—");
const STATE_VARIANT = { queued: "outline", running: "primary", succeeded: "success", failed: "destructive" } as const;

function progress(j: JobSummary): string {
  if (!j.progressTotal) return j.state === "succeeded" ? "done" : "—";
  const pct = Math.min(100, Math.floor((j.progressDone / j.progressTotal) * 100));
  return `${pct} %`;
}

export function JobsTable({ jobs }: { jobs: JobSummary[] }) {
  if (!jobs.length) return <p className="p-4 text-sm text-muted-foreground">No jobs yet.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Job</TableHead>
          <TableHead>State</TableHead>
          <TableHead className="text-right">Progress</TableHead>
          <TableHead className="text-right">Attempts</TableHead>
          <TableHead>Queued (UTC)</TableHead>
          <TableHead>Finished (UTC)</TableHead>
          <TableHead>Worker</TableHead>
          <TableHead>Result or error</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {jobs.map((j) => (
          <TableRow key={j.id} data-testid="job-row" data-state={j.state}>
            <TableCell>
              <span className="font-medium">{j.title}</span>
              <span className="block font-mono text-xs text-muted-foreground">
                {j.kind} · {j.id}
              </span>
            </TableCell>
            <TableCell>
              <Badge variant={STATE_VARIANT[j.state]}>{j.state}</Badge>
            </TableCell>
            <TableCell className="text-right tabular-nums">{progress(j)}</TableCell>
            <TableCell className="text-right tabular-nums">
              {j.attempts} / {j.maxAttempts}
            </TableCell>
            <TableCell className="font-mono text-xs">{when(j.createdAt)}</TableCell>
            <TableCell className="font-mono text-xs">{when(j.finishedAt)}</TableCell>
            <TableCell className="font-mono text-xs">{j.worker ?? "—"}</TableCell>
            <TableCell className={`max-w-md text-xs ${j.error && j.state !== "succeeded" ? "text-destructive" : ""}`}>
              {j.state === "succeeded" ? j.result : (j.error ?? "")}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
