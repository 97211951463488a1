"use client";
import { useRef, useState, type DragEvent } from "react";
import { Upload } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { uploadFile, type UploadProgress, type UploadResult } from "./upload-file";
import { ImportSummary } from "./import-summary";

type Item = { name: string; size: number; progress: UploadProgress | null; result?: UploadResult; error?: string };

const ACCEPT = ".jsonl,.json,.gz,.zip,.eval,.cast,.traj,.txt";

export function UploadDropzone({ maxMb }: { maxMb: number }) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [items, setItems] = useState<Item[]>([]);
  const [runName, setRunName] = useState("");
  const [strict, setStrict] = useState(false);
  const busy = items.some((i) => i.progress && i.progress.phase !== "done" && i.progress.phase !== "error" && !i.error);

  async function start(files: File[]) {
    const base = items.length;
    setItems((prev) => [...prev, ...files.map((f) => ({ name: f.name, size: f.size, progress: null }))]);
    for (const [k, file] of files.entries()) {
      const idx = base + k;
      const update = (patch: Partial<Item>) => setItems((prev) => prev.map((it, i) => (i === idx ? { ...it, ...patch } : it)));
      if (file.size > maxMb * 1024 * 1024) {
        update({ error: `larger than the ${maxMb} MB upload limit` });
        continue;
      }
      try {
        const params: Record<string, string> = {};
        if (runName.trim()) params.run = runName.trim();
        if (strict) params.strict = "1";
        const result = await uploadFile(file, params, (p) => update({ progress: p }));
        update({ result });
      } catch (e) {
        update({ error: (e as Error).message });
      }
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    const files = [...e.dataTransfer.files];
    if (files.length) void start(files);
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted-foreground">Run name (optional, overrides the file&apos;s)</span>
          <input
            value={runName}
            onChange={(e) => setRunName(e.target.value)}
            className="h-9 w-64 rounded-md border bg-background px-2"
            placeholder="e.g. qwen3-8b-grpo-s400"
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.target.checked)} />
          All or nothing (strict)
        </label>
      </div>
      <div
        role="button"
        tabIndex={0}
        aria-label="Drop trajectory files here or press Enter to choose files"
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onClick={() => input.current?.click()}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && input.current?.click()}
        className={cn(
          "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-6 py-12 text-center transition-colors",
          dragging ? "border-primary bg-accent" : "hover:bg-muted/50",
        )}
      >
        <Upload className="size-8 text-muted-foreground" aria-hidden />
        <p className="font-medium">Drop files or a zipped job folder here</p>
        <p className="text-sm text-muted-foreground">
          Harbor/ATIF (multi-step trials too), asciinema casts, Terminal-Bench, SWE-agent, OpenHands, Inspect (.eval or .json), SFT
          JSONL/ShareGPT, ReTerm native JSONL · .gz and .zip accepted · up to {maxMb} MB each
        </p>
        <Button variant="outline" size="sm" type="button" disabled={busy}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="hidden"
          data-testid="file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = "";
            if (files.length) void start(files);
          }}
        />
      </div>
      <ol className="flex flex-col gap-4" aria-label="Uploads">
        {items.map((it, i) => (
          <li key={i} className="rounded-lg border bg-card p-4" data-testid="upload-item">
            {it.result ? (
              <ImportSummary name={it.name} result={it.result} />
            ) : it.error ? (
              <p className="text-sm text-destructive" role="alert">
                {it.name}: {it.error}
              </p>
            ) : (
              <ProgressRow item={it} />
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function ProgressRow({ item }: { item: Item }) {
  const p = item.progress;
  const pct = p ? Math.round((p.sentBytes / Math.max(1, p.totalBytes)) * 100) : 0;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex justify-between">
        <span className="font-medium">{item.name}</span>
        <span className="text-muted-foreground">
          {!p
            ? "waiting…"
            : p.phase === "uploading"
              ? `uploading ${pct}%`
              : `importing… ${p.imported} imported, ${p.duplicates} duplicates, ${p.failed} failed`}
        </span>
      </div>
      <div className="h-1.5 overflow-hidden rounded bg-muted" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
        <div
          className={cn("h-full bg-primary transition-all", p?.phase === "importing" && "animate-pulse")}
          style={{ width: `${p?.phase === "importing" ? 100 : pct}%` }}
        />
      </div>
    </div>
  );
}
