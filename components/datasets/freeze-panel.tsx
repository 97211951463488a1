"use client";
import { useState, useTransition } from "react";
import { Snowflake } from "lucide-react";
import { freezeDatasetAction } from "@/lib/actions/datasets";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** Freeze the draft. When held-out tasks block it, the error names them and a reason can be given to override. */
export function FreezePanel({ name, revision, hasChanges }: { name: string; revision: number; hasChanges: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [needsOverride, setNeedsOverride] = useState(false);
  const [reason, setReason] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const freeze = () =>
    start(async () => {
      const r = await freezeDatasetAction({
        name,
        expectedRevision: revision,
        ...(needsOverride && reason ? { override: { reason } } : {}),
      });
      if (r.ok) {
        setDone(`Frozen as version ${r.data.version}`);
        setError(null);
        setNeedsOverride(false);
        return;
      }
      setError(r.error);
      if (/held-out/.test(r.error)) setNeedsOverride(true);
    });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          onClick={freeze}
          disabled={pending || !hasChanges}
          data-testid="freeze-dataset"
          title={hasChanges ? "Freeze the current items as a new, immutable version" : "No changes since the last frozen version"}
        >
          <Snowflake aria-hidden /> {pending ? "Freezing…" : needsOverride ? "Freeze anyway" : "Freeze version"}
        </Button>
        {needsOverride ? (
          <Input
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="Why held-out tasks may be included (recorded)"
            className="w-80"
            aria-label="Override reason"
          />
        ) : null}
        {done ? (
          <span role="status" className="text-sm text-success">
            {done}
          </span>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="max-w-3xl text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
