"use client";
// "Start labelling": reserve the next item of a queue and open it next to its replay. The reservation is asked for
// as soon as the pointer rests on the button or it takes focus (the annotator's intent), and the item's page is
// fetched then, so the click only navigates. The reservation is the annotator's own and expires when left idle; asking
// again returns the same one.
import { useCallback, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { PrefetchOptions } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { Button } from "@/components/ui/button";
import { startQueueAction } from "@/lib/actions/annotation";
import type { ActionResult } from "@/lib/http/action-result";

// A full prefetch: the page's dynamic data too (by default a dynamic route prefetches only its layout).
const FULL = { kind: "full" } as unknown as PrefetchOptions;

// An answer older than this is asked for again on click (the item may have been freed or taken meanwhile).
const FRESH_MS = 60_000;

/** `ahead`: reserve on intent (the queue's own page; not lists, where a passing pointer would reserve everywhere). */
export function StartQueueButton({
  queueId,
  label = "Start labelling",
  ahead = false,
}: {
  queueId: string;
  label?: string;
  ahead?: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, start] = useTransition();
  const pending = useRef<{ at: number; answer: Promise<ActionResult<{ href: string }>> } | null>(null);
  const reserve = useCallback(() => {
    if (!pending.current || Date.now() - pending.current.at > FRESH_MS) {
      const answer = startQueueAction({ queueId }).then((r) => {
        // Only an item's page is fetched ahead: the queue page's copy would go stale ("finished" with nothing left).
        if (r.ok && r.data.href.includes("/item?")) router.prefetch(r.data.href, FULL);
        return r;
      });
      pending.current = { at: Date.now(), answer };
    }
    return pending.current.answer;
  }, [queueId, router]);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        disabled={busy}
        onPointerEnter={ahead ? () => void reserve() : undefined}
        onFocus={ahead ? () => void reserve() : undefined}
        onClick={() =>
          start(async () => {
            const r = await reserve();
            // Asked again next time: the answer may change (an item freed, a reservation expired).
            pending.current = null;
            if (r.ok) router.push(r.data.href);
            else setError(r.error);
          })
        }
      >
        {label}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </span>
  );
}
