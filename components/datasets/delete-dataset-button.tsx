"use client";
import { useState, useTransition } from "react";
import { Trash2 } from "lucide-react";
import { deleteDatasetAction } from "@/lib/actions/datasets";
import { Button } from "@/components/ui/button";

/** Delete the dataset after a second click (its versions, items and exported files go with it). */
export function DeleteDatasetButton({ name, revision }: { name: string; revision: number }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col gap-1">
      <Button
        size="sm"
        variant={confirming ? "destructive" : "ghost"}
        disabled={pending}
        data-testid="delete-dataset"
        onClick={() => {
          if (!confirming) return setConfirming(true);
          start(async () => {
            const r = await deleteDatasetAction({ name, expectedRevision: revision });
            if (r && !r.ok) setError(r.error);
          });
        }}
      >
        <Trash2 aria-hidden /> {pending ? "Deleting…" : confirming ? "Delete dataset and its export files?" : "Delete"}
      </Button>
      {error ? (
        <p role="alert" className="max-w-sm text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
