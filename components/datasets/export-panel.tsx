"use client";
import { useEffect, useState } from "react";
import { Download, FileDown, Loader2 } from "lucide-react";
import { z } from "zod";
import { formatBytes, formatCount } from "@/lib/format";
import { Button } from "@/components/ui/button";
import { FieldLabel, Input, NativeSelect } from "@/components/ui/input";

const FORMATS = [
  ["openai", "OpenAI fine-tuning chat JSONL"],
  ["trl", "TRL / transformers prompt-completion JSONL"],
  ["sharegpt", "LLaMA-Factory ShareGPT JSONL (+ dataset_info.json)"],
  ["axolotl", "axolotl chat_template JSONL (per-message train)"],
  ["native", "ReTerm native JSONL (lossless)"],
  ["labels-csv", "Labels CSV"],
  ["labels-jsonl", "Labels JSONL"],
] as const;
const CHAT = new Set(["openai", "trl", "sharegpt", "axolotl"]);
const SIDECAR_LINKS: Record<string, string> = { provenance: "Provenance (.provenance.jsonl)", "dataset-info": "dataset_info.json" };

const jobSchema = z.object({
  id: z.string(),
  format: z.string(),
  status: z.enum(["running", "succeeded", "failed", "expired"]),
  rowsWritten: z.number(),
  rowsTotal: z.number(),
  bytesWritten: z.number(),
  error: z.string().nullable(),
  ready: z.boolean(),
  filename: z.string().nullable(),
  sidecars: z.array(z.string()).default([]),
  phase: z.enum(["queued", "writing"]).nullable().default(null),
  attempts: z.number().default(0),
});
type Job = z.infer<typeof jobSchema>;
const errorSchema = z.object({ error: z.object({ message: z.string() }) });

/**
 * Start a background export, follow its progress, and download the file, its card and its sidecars when ready.
 * `leaks`: held-out tasks per version number that holds any (the form then asks for an override reason);
 * `defaultVersion`: the version an export without a number takes.
 */
export function ExportPanel({
  name,
  versions,
  initial,
  leaks = {},
  defaultVersion = null,
}: {
  name: string;
  versions: { version: number; frozen: boolean }[];
  initial: Job[];
  leaks?: Record<number, string[]>;
  defaultVersion?: number | null;
}) {
  const [job, setJob] = useState<Job | null>(initial[0] ?? null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [format, setFormat] = useState<string>("openai");
  const [version, setVersion] = useState("");
  const chosen = version ? Number(version) : defaultVersion;
  const held = chosen !== null ? (leaks[chosen] ?? []) : [];

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
        const reason = String(data.get("override") ?? "").trim();
        const maxTokens = String(data.get("maxTokens") ?? "").trim();
        const options = CHAT.has(format)
          ? {
              observations: data.get("observations"),
              ...(data.get("context") ? { context: data.get("context") } : {}),
              ...(maxTokens ? { maxTokens: Number(maxTokens) } : {}),
            }
          : undefined;
        setStarting(true);
        setError(null);
        // The previous export's "ready" line belongs to another format or version: it goes as this one starts.
        setJob(null);
        try {
          const res = await fetch(`/api/v1/datasets/${encodeURIComponent(name)}/exports`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              format,
              ...(version ? { version: Number(version) } : {}),
              ...(reason ? { override: { reason } } : {}),
              ...(options ? { options } : {}),
            }),
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
          <NativeSelect name="format" value={format} onChange={(e) => setFormat(e.target.value)} aria-label="Export format">
            {FORMATS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </NativeSelect>
        </FieldLabel>
        <FieldLabel>
          Version
          <NativeSelect name="version" value={version} onChange={(e) => setVersion(e.target.value)} aria-label="Version">
            <option value="">Latest frozen (or current items)</option>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                v{v.version}
                {v.frozen ? "" : " (draft)"}
              </option>
            ))}
          </NativeSelect>
        </FieldLabel>
        {CHAT.has(format) ? (
          <>
            <FieldLabel>
              Observations
              <NativeSelect name="observations" defaultValue="rendered" aria-label="Observations">
                <option value="rendered">As the agent saw them (rendered)</option>
                <option value="raw">Raw bytes (escape sequences kept)</option>
              </NativeSelect>
            </FieldLabel>
            <FieldLabel>
              Failed context
              <NativeSelect name="context" defaultValue="" aria-label="Failed context">
                <option value="">{format === "sharegpt" ? "Folded into the first human turn (default)" : "Masked turns (default)"}</option>
                <option value={format === "sharegpt" ? "turns" : "prompt"}>
                  {format === "sharegpt" ? "As turns (LLaMA-Factory trains them)" : "Folded into the first user turn"}
                </option>
              </NativeSelect>
            </FieldLabel>
            <FieldLabel>
              Max tokens per row
              <Input name="maxTokens" type="number" min={16} placeholder="no limit" className="w-32" aria-label="Max tokens per row" />
            </FieldLabel>
          </>
        ) : null}
        <Button type="submit" size="sm" disabled={starting || job?.status === "running"} data-testid="start-export">
          <FileDown aria-hidden /> Export
        </Button>
      </div>
      {held.length ? (
        <FieldLabel>
          Override reason — this version holds held-out tasks ({held.slice(0, 5).join(", ")}
          {held.length > 5 ? ` and ${held.length - 5} more` : ""}); needed unless its freeze recorded one
          <Input
            name="override"
            minLength={3}
            placeholder="why held-out tasks may be included"
            className="max-w-xl"
            aria-label="Override reason"
            data-testid="override-reason"
          />
        </FieldLabel>
      ) : null}
      {error ? (
        <p role="alert" className="max-w-3xl text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {job ? <JobStatus job={job} /> : null}
    </form>
  );
}

function JobStatus({ job }: { job: Job }) {
  const pct = job.rowsTotal ? Math.min(100, Math.round((job.rowsWritten / job.rowsTotal) * 100)) : 0;
  if (job.status === "failed")
    return (
      <p role="alert" className="text-sm text-destructive">
        Export failed: {job.error}
      </p>
    );
  if (job.status === "expired") {
    return (
      <p role="status" className="text-sm text-muted-foreground" data-testid="export-expired">
        The file of the last export ({job.filename ?? job.format}, {formatCount(job.rowsTotal)} items) has expired: {job.error}. Export
        again to download it.
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
        {job.phase === "queued" ? (
          <span data-testid="export-queued">
            {job.attempts > 0 ? `Attempt ${job.attempts} stopped; queued again for a worker` : "Queued: waiting for a worker"}
          </span>
        ) : (
          <span>
            {formatCount(job.rowsWritten)} / {formatCount(job.rowsTotal)} items
            {job.attempts > 1 ? ` (attempt ${job.attempts})` : ""}
          </span>
        )}
      </div>
    );
  }
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 text-sm" data-testid="export-ready">
      <span>
        {job.filename} · {formatCount(job.rowsTotal)} items · {job.bytesWritten ? formatBytes(job.bytesWritten) : "empty file"}
      </span>
      <Button asChild size="sm" variant="secondary">
        <a href={`/api/exports/${job.id}/download`} download data-testid="download-export">
          <Download aria-hidden /> Download
        </a>
      </Button>
      <Button asChild size="sm" variant="ghost">
        <a href={`/api/exports/${job.id}/download?file=card`} download>
          Dataset card (README.md)
        </a>
      </Button>
      {job.sidecars.map((s) => (
        <Button key={s} asChild size="sm" variant="ghost">
          <a href={`/api/exports/${job.id}/download?file=${s}`} download data-testid={`download-${s}`}>
            {SIDECAR_LINKS[s] ?? s}
          </a>
        </Button>
      ))}
    </div>
  );
}
