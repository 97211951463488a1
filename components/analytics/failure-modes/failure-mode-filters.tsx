"use client";
import { useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { RotateCcw } from "lucide-react";
import { DataTableFacetedFilter } from "@/components/data-table/data-table-faceted-filter";
import { Button } from "@/components/ui/button";
import type { AnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import type { FailureModesQuery } from "@/lib/validation/failure-modes-params";

const FILTERS = [
  { key: "runId", title: "Run" },
  { key: "model", title: "Model" },
  { key: "checkpoint", title: "Checkpoint" },
  { key: "method", title: "Training method" },
  { key: "category", title: "Task category" },
] as const;

/** The analytics filters, and a two-sided comparison (two runs or two checkpoints), written to the URL. */
export function FailureModeFilters({ options, query }: { options: AnalyticsOptions; query: FailureModesQuery }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  const push = (next: URLSearchParams) => startTransition(() => router.push(`${pathname}?${next}`, { scroll: false }));
  const set = (key: string, values: string[]) => {
    const next = new URLSearchParams(params);
    next.delete(key);
    for (const v of values) next.append(key, v);
    push(next);
  };
  const setCompare = (by: "run" | "checkpoint", side: "baseline" | "compared", values: string[]) => {
    const next = new URLSearchParams(params);
    // Switching between comparing runs and checkpoints starts the other side afresh.
    if (next.get("compareBy") !== by) next.delete(side === "baseline" ? "compared" : "baseline");
    next.set("compareBy", by);
    if (values[0]) next.set(side, values[0]);
    else next.delete(side);
    push(next);
  };
  const c = query.compare;
  const sideOf = (by: "run" | "checkpoint", side: "baseline" | "compared") => (params.get("compareBy") === by && params.get(side) ? [params.get(side)!] : []);
  const any = FILTERS.some((f) => query.filter[f.key].length > 0) || !!c || params.has("compareBy");
  return (
    <div className="mb-4 flex flex-wrap items-center gap-1.5" role="toolbar" aria-label="Failure mode filters" aria-busy={pending}>
      {FILTERS.map(({ key, title }) => (
        <DataTableFacetedFilter key={key} title={title} options={options[key]} selected={query.filter[key]} multiple onChange={(v) => set(key, v)} />
      ))}
      <span className="mx-1 h-5 w-px bg-border" aria-hidden />
      <DataTableFacetedFilter title="Baseline run" options={options.runId} selected={sideOf("run", "baseline")} multiple={false} onChange={(v) => setCompare("run", "baseline", v)} />
      <DataTableFacetedFilter title="Compared run" options={options.runId} selected={sideOf("run", "compared")} multiple={false} onChange={(v) => setCompare("run", "compared", v)} />
      <DataTableFacetedFilter title="Baseline checkpoint" options={options.checkpoint} selected={sideOf("checkpoint", "baseline")} multiple={false} onChange={(v) => setCompare("checkpoint", "baseline", v)} />
      <DataTableFacetedFilter title="Compared checkpoint" options={options.checkpoint} selected={sideOf("checkpoint", "compared")} multiple={false} onChange={(v) => setCompare("checkpoint", "compared", v)} />
      {any ? (
        <Button variant="ghost" size="sm" onClick={() => startTransition(() => router.push(pathname, { scroll: false }))}>
          <RotateCcw aria-hidden /> Reset
        </Button>
      ) : null}
      {pending ? <span className="text-xs text-muted-foreground" role="status">Updating…</span> : null}
    </div>
  );
}
