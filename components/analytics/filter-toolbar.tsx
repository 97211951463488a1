"use client";
// The analytics pages' filter toolbar: the shared filters (run, model, checkpoint, training method, task category)
// written to the URL, then the page's own controls, Reset and a pending note. The pages differ only in those controls.
import { useTransition, type ReactNode } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { RotateCcw } from "lucide-react";
import { DataTableFacetedFilter } from "@/components/data-table/data-table-faceted-filter";
import { Button } from "@/components/ui/button";
import type { AnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";

const FILTERS = [
  { key: "runId", title: "Run" },
  { key: "model", title: "Model" },
  { key: "checkpoint", title: "Checkpoint" },
  { key: "method", title: "Training method" },
  { key: "category", title: "Task category" },
] as const;

type FilterKey = (typeof FILTERS)[number]["key"];

/** The page's URL as filter state: replace a parameter's values, push a whole new query, or clear it all. */
export function useFilterUrl() {
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
  const reset = () => startTransition(() => router.push(pathname, { scroll: false }));
  return { params, pending, push, set, reset };
}

export type FilterUrl = ReturnType<typeof useFilterUrl>;

/** `active`: whether the page's own controls are set (Reset is offered when they or a shared filter are). */
export function FilterToolbar({
  label,
  options,
  filter,
  url,
  active,
  children,
}: {
  label: string;
  options: AnalyticsOptions;
  filter: Record<FilterKey, string[]>;
  url: FilterUrl;
  active: boolean;
  children: ReactNode;
}) {
  const any = active || FILTERS.some((f) => filter[f.key].length > 0);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-1.5" role="toolbar" aria-label={label} aria-busy={url.pending}>
      {FILTERS.map(({ key, title }) => (
        <DataTableFacetedFilter
          key={key}
          title={title}
          options={options[key]}
          selected={filter[key]}
          multiple
          onChange={(v) => url.set(key, v)}
        />
      ))}
      <span className="mx-1 h-5 w-px bg-border" aria-hidden />
      {children}
      {any ? (
        <Button variant="ghost" size="sm" onClick={url.reset}>
          <RotateCcw aria-hidden /> Reset
        </Button>
      ) : null}
      {url.pending ? (
        <span className="text-xs text-muted-foreground" role="status">
          Updating…
        </span>
      ) : null}
    </div>
  );
}
