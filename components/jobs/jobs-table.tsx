// The jobs page's list: a table from 1024 px, one card per job below (a phone or a narrow window shows every field
// without scrolling sideways). Queued and finished share a column so the table fits beside the sidebar at 1280 px.
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { JobSummary } from "@/lib/services/jobs/list-jobs";

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 19) : "—");
const STATE_VARIANT = { queued: "outline", running: "primary", succeeded: "success", failed: "destructive" } as const;

function progress(j: JobSummary): string {
  if (!j.progressTotal) return j.state === "succeeded" ? "done" : "—";
  return `${Math.min(100, Math.floor((j.progressDone / j.progressTotal) * 100))} %`;
}

/** What the job ended with: its result once succeeded, else the last attempt's error (kept while it retries). */
function Outcome({ job }: { job: JobSummary }) {
  if (job.state === "succeeded") return <>{job.result}</>;
  if (!job.error) return null;
  return <span className={job.state === "failed" ? "text-destructive" : "text-muted-foreground"}>{job.error}</span>;
}

export function JobsTable({ jobs }: { jobs: JobSummary[] }) {
  if (!jobs.length) return <p className="p-4 text-sm text-muted-foreground">No jobs yet.</p>;
  return (
    <>
      <ul className="divide-y lg:hidden">
        {jobs.map((j) => (
          <li key={j.id} data-testid="job-card" data-state={j.state} className="flex flex-col gap-1 p-3 text-sm">
            <div className="flex items-start justify-between gap-2">
              <span className="font-medium">{j.title}</span>
              <Badge variant={STATE_VARIANT[j.state]}>{j.state}</Badge>
            </div>
            <p className="text-xs text-muted-foreground">
              {progress(j)} · attempt {j.attempts} of {j.maxAttempts} · queued {when(j.createdAt)} UTC
              {j.worker ? ` · ${j.worker}` : ""}
            </p>
            <p className="text-xs break-words">
              <Outcome job={j} />
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden lg:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Job</TableHead>
              <TableHead>State</TableHead>
              <TableHead className="text-right">Progress</TableHead>
              <TableHead className="text-right">Attempts</TableHead>
              <TableHead>Queued · finished (UTC)</TableHead>
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
                <TableCell className="font-mono text-xs">
                  {when(j.createdAt)}
                  <span className="block text-muted-foreground">{when(j.finishedAt)}</span>
                </TableCell>
                <TableCell className="font-mono text-xs">{j.worker ?? "—"}</TableCell>
                <TableCell className="min-w-40 text-xs whitespace-normal">
                  <Outcome job={j} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
