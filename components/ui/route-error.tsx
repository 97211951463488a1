"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { AlertTriangle } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { Button } from "@/components/ui/button";

export type RouteErrorProps = { error: Error & { digest?: string }; reset: () => void };

/** The body of every route's error.tsx: what failed, the server's message and reference, retry and a way back. */
export function RouteError({
  error,
  reset,
  title,
  hint,
  back,
}: RouteErrorProps & { title: string; hint?: ReactNode; back?: { href: string; label: string } }) {
  return (
    <EmptyState title={title} icon={<AlertTriangle />}>
      <p className="mb-3">
        {error.message || "The server could not complete the request."}
        {hint ? <> {hint}</> : null}
      </p>
      {error.digest ? <p className="mb-3 font-mono text-xs">Reference: {error.digest}</p> : null}
      <div className="flex justify-center gap-2">
        <Button onClick={reset}>Try again</Button>
        {back ? (
          <Button variant="outline" asChild>
            <Link href={back.href}>{back.label}</Link>
          </Button>
        ) : null}
      </div>
    </EmptyState>
  );
}
