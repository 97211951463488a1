"use client";
// The step list's rows, fetched in pages as they scroll into view: the page sends only the lines around where the
// replay opens, and a 1,600-step list costs a few requests of 100 lines instead of ≈ 215 KB in the HTML.
import { useCallback, useEffect, useRef, useState } from "react";
import { z } from "zod";
import { stepSummarySchema, type StepSummary } from "@/lib/domain/replay/recording";

export const STEP_PAGE = 100;

const pageSchema = z.object({ total: z.number().int().nonnegative(), steps: z.array(stepSummarySchema) });

export function stepSummariesUrl(trajectoryId: string, from: number, to: number): string {
  return `/api/v1/trajectories/${encodeURIComponent(trajectoryId)}/replay/steps?from=${from}&to=${to}`;
}

/** Rows by step index (sparse) and `want(from, to)`, which fetches the pages covering [from, to) that are missing. */
export function useStepSummaries(trajectoryId: string, total: number, initial: { from: number; steps: StepSummary[] }) {
  const [rows, setRows] = useState(() => new Map(initial.steps.map((s) => [s.index, s])));
  const requested = useRef(new Set<number>());
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const want = useCallback(
    (from: number, to: number) => {
      const first = Math.floor(Math.max(0, from) / STEP_PAGE);
      const last = Math.floor((Math.min(total, to) - 1) / STEP_PAGE);
      for (let p = first; p <= last; p++) {
        const lo = p * STEP_PAGE;
        const hi = Math.min(total, lo + STEP_PAGE);
        // A page the opening window already covers is not fetched again.
        if (requested.current.has(p) || (lo >= initial.from && hi <= initial.from + initial.steps.length)) continue;
        requested.current.add(p);
        fetch(stepSummariesUrl(trajectoryId, lo, hi))
          .then(async (res) => {
            if (!res.ok) throw new Error(`Steps ${lo}–${hi - 1} could not be loaded (HTTP ${res.status})`);
            return pageSchema.parse(await res.json()).steps;
          })
          .then((steps) => {
            if (!mounted.current) return;
            setRows((m) => {
              const next = new Map(m);
              for (const s of steps) next.set(s.index, s);
              return next;
            });
          })
          .catch((e: unknown) => {
            requested.current.delete(p); // scrolling there again retries
            if (mounted.current) setError(e instanceof Error ? e.message : String(e));
          });
      }
    },
    [trajectoryId, total, initial],
  );
  return { rows, want, error };
}
