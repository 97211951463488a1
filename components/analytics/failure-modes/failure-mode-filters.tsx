"use client";
import { DataTableFacetedFilter } from "@/components/data-table/data-table-faceted-filter";
import { FilterToolbar, useFilterUrl } from "@/components/analytics/filter-toolbar";
import type { AnalyticsOptions } from "@/lib/services/analytics/get-analytics-options";
import type { FailureModesQuery } from "@/lib/validation/failure-modes-params";

/** The analytics filters, and a two-sided comparison (two runs or two checkpoints), written to the URL. */
export function FailureModeFilters({ options, query }: { options: AnalyticsOptions; query: FailureModesQuery }) {
  const url = useFilterUrl();
  const { params } = url;
  const setCompare = (by: "run" | "checkpoint", side: "baseline" | "compared", values: string[]) => {
    const next = new URLSearchParams(params);
    // Switching between comparing runs and checkpoints starts the other side afresh.
    if (next.get("compareBy") !== by) next.delete(side === "baseline" ? "compared" : "baseline");
    next.set("compareBy", by);
    if (values[0]) next.set(side, values[0]);
    else next.delete(side);
    url.push(next);
  };
  const sideOf = (by: "run" | "checkpoint", side: "baseline" | "compared") =>
    params.get("compareBy") === by && params.get(side) ? [params.get(side)!] : [];
  return (
    <FilterToolbar
      label="Failure mode filters"
      options={options}
      filter={query.filter}
      url={url}
      active={!!query.compare || params.has("compareBy")}
    >
      <DataTableFacetedFilter
        title="Baseline run"
        options={options.runId}
        selected={sideOf("run", "baseline")}
        multiple={false}
        onChange={(v) => setCompare("run", "baseline", v)}
      />
      <DataTableFacetedFilter
        title="Compared run"
        options={options.runId}
        selected={sideOf("run", "compared")}
        multiple={false}
        onChange={(v) => setCompare("run", "compared", v)}
      />
      <DataTableFacetedFilter
        title="Baseline checkpoint"
        options={options.checkpoint}
        selected={sideOf("checkpoint", "baseline")}
        multiple={false}
        onChange={(v) => setCompare("checkpoint", "baseline", v)}
      />
      <DataTableFacetedFilter
        title="Compared checkpoint"
        options={options.checkpoint}
        selected={sideOf("checkpoint", "compared")}
        multiple={false}
        onChange={(v) => setCompare("checkpoint", "compared", v)}
      />
    </FilterToolbar>
  );
}
