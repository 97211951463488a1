"use client";
// Record the final label of one target: pick from the annotators' values or any option, with a note.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { LabelOptionDef } from "@/lib/domain/annotation/label-schema";
import type { TargetInput } from "@/lib/domain/annotation/targets";
import { Button } from "@/components/ui/button";
import { recordGoldAction } from "@/lib/actions/annotation";

export function GoldForm({
  trajectoryId,
  schemaKey,
  target,
  options,
  initial,
  version,
}: {
  trajectoryId: string;
  schemaKey: string;
  target: TargetInput | undefined;
  options: LabelOptionDef[];
  initial: string;
  version: number;
}) {
  const router = useRouter();
  const [value, setValue] = useState(initial);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, start] = useTransition();
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await recordGoldAction({
            trajectory: trajectoryId,
            schema: schemaKey,
            value,
            target,
            comment: comment || null,
            version,
          });
          if (r.ok) {
            setError(null);
            router.refresh();
          } else setError(r.error);
        });
      }}
    >
      <select
        aria-label="Final label"
        className="h-8 rounded-md border bg-background px-2 text-sm"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      >
        <option value="" disabled>
          Choose…
        </option>
        {options
          .filter((o) => !o.retired || o.value === initial)
          .map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
      </select>
      <input
        aria-label="Note"
        placeholder="Note (optional)"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        className="h-8 w-48 rounded-md border bg-background px-2 text-sm"
      />
      <Button size="sm" type="submit" disabled={busy || !value}>
        {version ? "Change final label" : "Record final label"}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </form>
  );
}
