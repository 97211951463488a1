"use client";
import { useEffect, useState } from "react";
import { Download, FileDown, Loader2 } from "lucide-react";
import { z } from "zod";
import { formatCount } from "@/lib/format";
import { Button } from "@/components/ui/button";
import { FieldLabel, NativeSelect } from "@/components/ui/input";

const FORMATS = [
  ["openai", "OpenAI chat JSONL"],
  ["sharegpt", "ShareGPT JSONL"],
  ["native", "ReTerm native JSONL (lossless)"],
  ["labels-csv", "Labels CSV"],
  ["labels-jsonl", "Labels JSONL"],
] as const;

const jobSchema = z.object({
  id: z.string(), format: z.string(), status: z.enum(["running", "succeeded", "failed", "expired"]), rowsWritten: z.number(), rowsTotal: z.number(),
  bytesWritten: z.number(), error: z.string().nullable(), ready: z.boolean(), filename: z.string().nullable(),
});
type Job = z.infer<typeof jobSchema>;
const errorSchema = z.object({ error: z.object({ message: z.string() }) });

/** Start a background export, follow its progress, and download the file and its card when ready. */
export function ExportPanel({ name, versions, initial }: { name: string; versions: { version: number; frozen: boolean }[]; initial: Job[] }) {
  const [job, setJob] = useState<Job | null>(initial[0] ?? null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    if (!job || job.status !== "running") return;
    const timer = setTimeout(async () => {
      const res = await fetch(`/api/exports/${job.id}`);
      const body: unknown = await res.json();
      if (res.ok) setJob(jobSchema.parse(body));
      else setError(errorSchema.safeParse(body).data?.error.message ?? `HTTP ${res.status}`);
    }, 700);
    return () => clearTimeout(timer);
  }, [job]);

  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Export"
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const version = String(data.get("version") ?? "");
        setStarting(true);
        setError(null);
        try {
          const res = await fetch(`/api/v1/datasets/${encodeURIComponent(name)}/exports`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ format: data.get("format"), ...(version ? { version: Number(version) } : {}) }),
          });
          const body: unknown = await res.json();
          if (!res.ok) throw new Error(errorSchema.safeParse(body).data?.error.message ?? `HTTP ${res.status}`);
          setJob(jobSchema.parse(body));
        } catch (err) {
          setError((err as Error).message);
        } finally {
          setStarting(false);
        }
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <FieldLabel>
          Format
          <NativeSelect name="format" defaultValue="openai" aria-label="Export format">
            {FORMATS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </NativeSelect>
        </FieldLabel>
        <FieldLabel>
          Version
          <NativeSelect name="version" defaultValue="" aria-label="Version">
            <option value="">Latest frozen (or current items)</option>
            {versions.map((v) => <option key={v.version} value={v.version}>v{v.version}{v.frozen ? "" : " (draft)"}</option>)}
          </NativeSelect>
        </FieldLabel>
        <Button type="submit" size="sm" disabled={starting || job?.status === "running"} data-testid="start-export">
          <FileDown aria-hidden /> Export
        </Button>
      </div>
      {error ? <p role="alert" className="max-w-3xl text-sm text-destructive">{error}</p> : null}
      {job ? <JobStatus job={job} /> : null}
    </form>
  );
}

function JobStatus({ job }: { job: Job }) {
  const pct = job.rowsTotal ? Math.min(100, Math.round((job.rowsWritten / job.rowsTotal) * 100)) : 0;
  if (job.status === "failed") return <p role="alert" className="text-sm text-destructive">Export failed: {job.error}</p>;
  if (job.status === "expired") {
    return (
      <p role="status" className="text-sm text-muted-foreground" data-testid="export-expired">
        The file of the last export ({job.filename ?? job.format}, {formatCount(job.rowsTotal)} items) has expired: {job.error}. Export again to download it.
      </p>
    );
  }
  if (job.status === "running") {
    return (
      <div role="status" className="flex items-center gap-3 text-sm" data-testid="export-progress">
        <Loader2 className="size-4 animate-spin" aria-hidden />
        <div className="h-2 w-64 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div className="h-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
        </div>
        {formatCount(job.rowsWritten)} / {formatCount(job.rowsTotal)} items
      </div>
    );
  }
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 text-sm" data-testid="export-ready">
      <span>
        {job.filename} · {formatCount(job.rowsTotal)} items · {(job.bytesWritten / 1e6).toFixed(1)} MB
      </span>
      <Button asChild size="sm" variant="secondary">
        <a href={`/api/exports/${job.id}/download`} download data-testid="download-export"><Download aria-hidden /> Download</a>
      </Button>
      <Button asChild size="sm" variant="ghost">
        <a href={`/api/exports/${job.id}/download?file=card`} download>Dataset card (README.md)</a>
      </Button>
    </div>
  );
}
