"use client";
// Shown inside a <Link> while the page it opens is on its way. The trajectory page has no loading boundary (a
// streamed boundary is revealed at least 300 ms after the page's first paint, and the replay's opening screen waited
// for it), so a click gets its feedback here instead of from a skeleton.
import { useLinkStatus } from "next/link";
import { Loader2 } from "lucide-react";

export function LinkPending() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span role="status" aria-label="Opening" className="ml-1 inline-flex align-middle">
      <Loader2 className="size-3.5 animate-spin text-muted-foreground" aria-hidden />
    </span>
  ) : null;
}
