"use client";
// Re-render the server page every few seconds while a job is queued or running, so progress moves without a reload.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function RefreshWhileBusy({ busy, everyMs = 2_000 }: { busy: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(t);
  }, [busy, everyMs, router]);
  return null;
}
