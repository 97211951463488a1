"use client";
import { useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { RotateCcw } from "lucide-react";
import { DataTableFacetedFilter } from "@/components/data-table/data-table-faceted-filter";
import { Button } from "@/components/ui/button";
import type { AnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import type { AnalyticsFilter } from "@/lib/validation/analytics-params";

const FILTERS: { key: keyof AnalyticsFilter; title: string }[] = [
  { key: "runId", title: "Run" },
  { key: "model", title: "Model" },
  { key: "checkpoint", title: "Checkpoint" },
  { key: "method", title: "Training method" },
  { key: "category", title: "Task category" },
];

/** Filter buttons that write the analytics filter (and the compared runs) to the URL. */
export function AnalyticsFilters({ options, filter, compare }: { options: AnalyticsOptions; filter: AnalyticsFilter; compare: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  const set = (key: string, values: string[]) => {
    const next = new URLSearchParams(params);
    next.delete(key);
    for (const v of values) next.append(key, v);
    startTransition(() => router.push(`${pathname}?${next}`, { scroll: false }));
  };
  const any = FILTERS.some((f) => filter[f.key].length > 0) || compare.length > 0;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-1.5" role="toolbar" aria-label="Analytics filters" aria-busy={pending}>
      {FILTERS.map(({ key, title }) => (
        <DataTableFacetedFilter key={key} title={title} options={options[key]} selected={filter[key]} multiple onChange={(v) => set(key, v)} />
      ))}
      <span className="mx-1 h-5 w-px bg-border" aria-hidden />
      <DataTableFacetedFilter title="Compare runs" options={options.runId} selected={compare} multiple onChange={(v) => set("compare", v)} />
      {any ? (
        <Button variant="ghost" size="sm" onClick={() => startTransition(() => router.push(pathname, { scroll: false }))}>
          <RotateCcw aria-hidden /> Reset
        </Button>
      ) : null}
      {pending ? <span className="text-xs text-muted-foreground" role="status">Updating…</span> : null}
    </div>
  );
}
