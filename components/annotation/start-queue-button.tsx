"use client";
// "Start labelling": reserve the next item of a queue and open it next to its replay.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { startQueueAction } from "@/lib/actions/annotation";

export function StartQueueButton({ queueId, label = "Start labelling" }: { queueId: string; label?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, start] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        disabled={busy}
        onClick={() =>
          start(async () => {
            const r = await startQueueAction(queueId);
            if (r.ok) router.push(r.href);
            else setError(r.error);
          })
        }
      >
        {label}
      </Button>
      {error ? <span role="alert" className="text-xs text-destructive">{error}</span> : null}
    </span>
  );
}
