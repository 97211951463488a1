"use client";
import { DataTableFacetedFilter } from "@/components/data-table/data-table-faceted-filter";
import { FilterToolbar, useFilterUrl } from "@/components/analytics/filter-toolbar";
import type { AnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import type { AnalyticsFilter } from "@/lib/validation/analytics-params";

/** Filter buttons that write the analytics filter (and the compared runs) to the URL. */
export function AnalyticsFilters({ options, filter, compare }: { options: AnalyticsOptions; filter: AnalyticsFilter; compare: string[] }) {
  const url = useFilterUrl();
  return (
    <FilterToolbar label="Analytics filters" options={options} filter={filter} url={url} active={compare.length > 0}>
      <DataTableFacetedFilter
        title="Compare runs"
        options={options.runId}
        selected={compare}
        multiple
        onChange={(v) => url.set("compare", v)}
      />
    </FilterToolbar>
  );
}
