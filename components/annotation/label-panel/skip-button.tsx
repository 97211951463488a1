"use client";
// Skip a queue item with a reason; the place goes back to the queue and the next item opens.
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { skipItemAction } from "@/lib/actions/annotation";

export function SkipButton({
  queueId,
  slotId,
  onDone,
  onError,
}: {
  queueId: string;
  slotId: string;
  onDone(href: string): void;
  onError(t: string): void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, start] = useTransition();
  if (!open)
    return (
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        Skip…
      </Button>
    );
  return (
    <form
      className="flex items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await skipItemAction({ queueId, slotId, reason });
          if (r.ok) onDone(r.data.href);
          else onError(r.error);
        });
      }}
    >
      <input
        autoFocus
        aria-label="Skip reason"
        placeholder="Why skip?"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="h-8 w-40 rounded-md border bg-background px-2 text-sm"
      />
      <Button size="sm" type="submit" disabled={busy || !reason.trim()}>
        Skip
      </Button>
    </form>
  );
}
