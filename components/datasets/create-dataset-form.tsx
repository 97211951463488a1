"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { DatabaseZap } from "lucide-react";
import { createDatasetFromFilterAction, createDatasetFromSelectionAction } from "@/lib/actions/datasets";
import type { ActionResult } from "@/lib/http/action-result";
import { formatCount, formatCountAtLeast } from "@/lib/format";
import { Button } from "@/components/ui/button";
import { FieldLabel, Input } from "@/components/ui/input";
import { DatasetNameFields } from "./dataset-name-fields";

type Kind = "trajectory" | "segment";
type Create = (v: { name: string; kind: Kind; description?: string }) => Promise<ActionResult<{ name: string; items: number }>>;

/** "Create a dataset from this filter": every trajectory the table's current filters match (not only this page). */
export function CreateDatasetForm({
  filter,
  matching,
  matchingCapped = false,
}: {
  filter: string;
  matching: number;
  matchingCapped?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="create-dataset">
        <DatabaseZap aria-hidden /> Create dataset from filter
      </Button>
    );
  }
  return (
    <DatasetForm
      create={(v) => createDatasetFromFilterAction({ ...v, filter })}
      submitLabel={`Create from ${formatCountAtLeast(matching, matchingCapped)} matching`}
      onCancel={() => setOpen(false)}
    />
  );
}

/** The form for a dataset built from the selected trajectories (ids are read when it is submitted). */
export function CreateDatasetFromSelectionForm({
  ids,
  onCancel,
  onCreated,
}: {
  ids: string[];
  onCancel: () => void;
  onCreated: () => void;
}) {
  return (
    <DatasetForm
      create={(v) => createDatasetFromSelectionAction({ ...v, ids })}
      onCreated={onCreated}
      submitLabel={`Create from ${formatCount(ids.length)} selected`}
      label="Create dataset from selection"
      onCancel={onCancel}
    />
  );
}

interface FormProps {
  create: Create;
  submitLabel: string;
  label?: string;
  onCancel: () => void;
  onCreated?: () => void;
}

function DatasetForm({ create, submitLabel, label = "Create dataset", onCancel, onCreated }: FormProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-lg border bg-card p-3"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const name = String(data.get("name") ?? "");
        const kind = data.get("kind") === "segment" ? "segment" : "trajectory";
        start(async () => {
          const r = await create({ name, kind, description: String(data.get("description") ?? "") || undefined });
          if (!r.ok) return setError(r.error);
          onCreated?.();
          router.push(`/datasets/${encodeURIComponent(r.data.name)}`);
        });
      }}
    >
      <DatasetNameFields defaultKind="trajectory" placeholder="recovery-sft-v1" invalid={!!error} autoFocus />
      <FieldLabel className="min-w-56 flex-1">
        Description
        <Input name="description" maxLength={2000} placeholder="optional" />
      </FieldLabel>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Creating…" : submitLabel}
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            setError(null);
            onCancel();
          }}
        >
          Cancel
        </Button>
      </div>
      {error ? (
        <p role="alert" className="basis-full text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
