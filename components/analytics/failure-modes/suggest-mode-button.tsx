"use client";
// "Label from here": offer the mode's suggested category on all its steps (within the page's filters) as
// suggestions — annotators still accept, change or reject each one; nothing becomes a label here.
import { useState, useTransition } from "react";
import { useSearchParams } from "next/navigation";
import { suggestModeCategoryAction } from "@/lib/actions/failure-modes";

export function SuggestModeButton({ modeId }: { modeId: string }) {
  const search = useSearchParams();
  const [busy, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span className="flex flex-col">
      <button
        type="button"
        disabled={busy}
        className="text-left text-muted-foreground hover:text-foreground hover:underline disabled:opacity-50"
        title="Offer this mode's suggested category on each of its steps as a suggestion (never a label)"
        onClick={() =>
          start(async () => {
            const r = await suggestModeCategoryAction({ mode: modeId, search: search.toString() });
            setMessage(
              r.ok
                ? `${r.data.created} suggested, ${r.data.updated} updated, ${r.data.unchanged} already${r.data.capped ? " (first steps only: narrow the filters)" : ""}`
                : r.error,
            );
          })
        }
      >
        {busy ? "Suggesting…" : "Suggest category on its steps"}
      </button>
      {message ? (
        <span role="status" className="text-muted-foreground">
          {message}
        </span>
      ) : null}
    </span>
  );
}
