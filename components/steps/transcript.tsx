"use client";
// Every step in full (reasoning, command, output) — the reading view under the replay. Not part of the page's HTML:
// a long trajectory's transcript was most of its weight (50 steps of output), and it is read after the replay.
// Pages of steps are fetched from the steps API when the section nears the viewport (or once the browser is
// idle after load), and further pages as the reader scrolls to the end of what is loaded.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import type { StepView } from "@/lib/services/browse/view-trajectory";
import { StepList } from "./step-list";
import { TRANSCRIPT_PAGE } from "./transcript-page";

/** Start loading this far before the transcript scrolls into view. */
const NEAR = "800px";
/** Without scrolling, the first page still arrives this long after the page has loaded (idle time permitting). */
const IDLE_LOAD_MS = 1500;

// The browser trusts no response shape blindly.
const stepViewSchema = z.object({
  index: z.number().int().nonnegative(),
  source: z.string(),
  offsetMs: z.number().nullable(),
  message: z.string().nullable(),
  reasoning: z.string().nullable(),
  action: z.string().nullable(),
  observation: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  isError: z.boolean(),
  isCopiedContext: z.boolean(),
});
const stepsResponseSchema = z.object({ steps: z.array(stepViewSchema) });

function stepsUrl(trajectoryId: string, from: number, to: number): string {
  return `/api/v1/trajectories/${encodeURIComponent(trajectoryId)}/steps?from=${from}&to=${to}`;
}

export function Transcript({
  trajectoryId,
  from,
  total,
  forkSteps,
}: {
  trajectoryId: string;
  from: number;
  total: number;
  forkSteps: number[];
}) {
  const [range, setRange] = useState<{ from: number; steps: StepView[] }>({ from, steps: [] });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState(false);
  const busy = useRef(false);
  const section = useRef<HTMLElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const forks = useMemo(() => new Set(forkSteps), [forkSteps]);
  const to = range.from + range.steps.length;
  const done = started && to >= total;

  const load = useCallback(
    async (lo: number, hi: number, place: "before" | "after") => {
      if (busy.current || hi <= lo) return;
      busy.current = true;
      setLoading(true);
      try {
        const res = await fetch(stepsUrl(trajectoryId, lo, hi));
        if (!res.ok) throw new Error(`Steps ${lo}–${hi - 1} could not be loaded (HTTP ${res.status})`);
        const { steps } = stepsResponseSchema.parse(await res.json());
        setRange((r) =>
          place === "after" ? { from: r.from, steps: [...r.steps, ...steps] } : { from: lo, steps: [...steps, ...r.steps] },
        );
        setError(null);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [trajectoryId],
  );

  // First page: when the section nears the viewport, or when the browser is idle after load.
  useEffect(() => {
    if (started || total === 0) return;
    let begun = false;
    const begin = () => {
      if (begun) return;
      begun = true;
      setStarted(true);
      void load(from, Math.min(total, from + TRANSCRIPT_PAGE), "after");
    };
    const near = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && begin(), { rootMargin: NEAR });
    if (section.current) near.observe(section.current);
    let idle: number | undefined;
    const afterLoad = () => {
      idle = window.setTimeout(
        () => (window.requestIdleCallback ? window.requestIdleCallback(begin, { timeout: 2000 }) : begin()),
        IDLE_LOAD_MS,
      );
    };
    if (document.readyState === "complete") afterLoad();
    else window.addEventListener("load", afterLoad, { once: true });
    return () => {
      near.disconnect();
      window.removeEventListener("load", afterLoad);
      window.clearTimeout(idle);
    };
  }, [started, total, from, load]);

  // Next page when the end of what is loaded nears the viewport.
  useEffect(() => {
    const el = end.current;
    if (!started || !el || done || range.steps.length === 0) return;
    const near = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void load(to, Math.min(total, to + TRANSCRIPT_PAGE), "after");
      },
      { rootMargin: NEAR },
    );
    near.observe(el);
    return () => near.disconnect();
  }, [started, done, to, total, load, range.steps.length]);

  return (
    <section
      ref={section}
      aria-labelledby="transcript-title"
      className="flex flex-col gap-3"
      data-testid="transcript"
      data-loaded-from={range.from}
      data-loaded-to={to}
    >
      <h2 id="transcript-title" className="text-sm font-semibold">
        Transcript{" "}
        {total > TRANSCRIPT_PAGE && range.steps.length ? (
          <span className="font-normal text-muted-foreground">
            · steps {range.from}–{to - 1} of {total}
          </span>
        ) : null}
      </h2>
      {range.from > 0 && range.steps.length ? (
        <Button
          variant="outline"
          className="w-fit"
          disabled={loading}
          onClick={() => void load(Math.max(0, range.from - TRANSCRIPT_PAGE), range.from, "before")}
        >
          Earlier steps
        </Button>
      ) : null}
      <StepList steps={range.steps} forkSteps={forks} />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}{" "}
          <Button variant="ghost" size="sm" onClick={() => void load(to, Math.min(total, to + TRANSCRIPT_PAGE), "after")}>
            Try again
          </Button>
        </p>
      ) : null}
      {!done && total > 0 ? (
        <div ref={end} className="flex flex-col gap-3" role="status" aria-label={loading || !started ? "Loading steps" : "More steps"}>
          <div className="h-24 animate-pulse rounded-lg border bg-card" />
        </div>
      ) : null}
    </section>
  );
}
