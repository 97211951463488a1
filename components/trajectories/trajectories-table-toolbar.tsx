"use client";
import type { ReactNode } from "react";
import { RotateCcw, X } from "lucide-react";
import type { TrajectoryFacets } from "@/lib/services/browse/browse-trajectories";
import { errorCategoryLabel } from "@/lib/domain/taxonomy";
import {
  formatRange,
  hasFilters,
  NO_ERROR,
  TRAJECTORY_FILTERS,
  type TrajectoryFilterKey,
  type TrajectoryListQuery,
} from "@/lib/validation/search-params";
import { DataTableFacetedFilter, type FacetOptionView } from "@/components/data-table/data-table-faceted-filter";
import { DataTableRangeFilter } from "@/components/data-table/data-table-range-filter";
import { SearchBox } from "@/components/search/search-box";
import { Button } from "@/components/ui/button";

export const SEARCH_INPUT_ID = "trajectory-search";

type MultiKey = "runId" | "model" | "taskId" | "category" | "outcome" | "error" | "datasetId" | "forkError" | "label";
type ChoiceKey = "forks" | "attempt" | "annotated" | "warnings";
type RangeKey = "reward" | "steps" | "duration" | "firstErrorStep";
/** Set only by analytics drill-downs; shown as removable chips while set. */
type DrillKey = "recovered" | "groupReward" | "groupSpread" | "labelSchema" | "labelledAt" | "mode";
const DRILL: DrillKey[] = ["recovered", "groupReward", "groupSpread", "labelSchema", "labelledAt", "mode"];

const MULTI: MultiKey[] = ["runId", "model", "taskId", "category", "outcome", "error", "datasetId", "forkError", "label"];
const CHOICE: ChoiceKey[] = ["forks", "attempt", "annotated", "warnings"];
const RANGES: { key: RangeKey; step: number }[] = [
  { key: "reward", step: 0.1 },
  { key: "steps", step: 1 },
  { key: "duration", step: 1 },
  { key: "firstErrorStep", step: 1 },
];

interface Props {
  query: TrajectoryListQuery;
  /** Undefined until the first counts arrive; null when a search's counts were skipped. */
  facets: TrajectoryFacets | null | undefined;
  /** Newer counts are on their way: `facets` are the previous query's. */
  counting: boolean;
  /** Filters fixed by the page (e.g. the task on a task page): not offered here. */
  hidden: TrajectoryFilterKey[];
  pending: boolean;
  /** Set a filter's URL parameter to these values (none = remove it). */
  onFilter: (key: TrajectoryFilterKey, values: string[]) => void;
  onSearch: (q: string, mode: "push" | "replace") => void;
  onReset: () => void;
  end: ReactNode;
}

function labelled(key: MultiKey, options: FacetOptionView[]): FacetOptionView[] {
  if (key !== "error" && key !== "forkError" && key !== "label") return options;
  return options.map((o) => ({ ...o, label: o.value === NO_ERROR ? o.label : errorCategoryLabel(o.value) }));
}

/** Search box, one button per facet (with counts) and range, "reset", and the column menu. */
export function TrajectoriesTableToolbar({ query, facets, counting, hidden, pending, onFilter, onSearch, onReset, end }: Props) {
  const show = (k: TrajectoryFilterKey) => !hidden.includes(k);
  return (
    <div className="flex flex-col gap-2 border-b p-3">
      <div className="flex items-center gap-2">
        <SearchBox
          id={SEARCH_INPUT_ID}
          value={query.q ?? ""}
          pending={pending && Boolean(query.q)}
          onSearch={onSearch}
          className="max-w-xl flex-1"
        />
        <div className="ml-auto flex items-center gap-2">{end}</div>
      </div>
      <div className="flex flex-wrap items-center gap-1.5" role="toolbar" aria-label="Filters">
        {MULTI.filter(show).map((key) => {
          const options = labelled(key, facets?.[key] ?? []);
          // Offered once counted (before that, whether any value exists is not known yet).
          if ((key === "datasetId" || key === "forkError" || key === "label") && !options.length && !query[key].length) return null;
          return (
            <DataTableFacetedFilter
              key={key}
              title={TRAJECTORY_FILTERS[key].label}
              options={options}
              selected={query[key]}
              multiple
              counting={counting}
              onChange={(values) => onFilter(key, values)}
            />
          );
        })}
        {CHOICE.filter(show).map((key) => (
          <DataTableFacetedFilter
            key={key}
            title={TRAJECTORY_FILTERS[key].label}
            options={facets?.[key] ?? []}
            selected={query[key] ? [query[key]] : []}
            multiple={false}
            counting={counting}
            onChange={(values) => onFilter(key, values.slice(0, 1))}
          />
        ))}
        {RANGES.filter((r) => show(r.key)).map(({ key, step }) => (
          <DataTableRangeFilter
            key={key}
            title={TRAJECTORY_FILTERS[key].label}
            value={query[key]}
            bounds={facets?.[key] ?? { min: null, max: null }}
            step={step}
            onChange={(r) => onFilter(key, r ? [formatRange(r) ?? ""] : [])}
          />
        ))}
        {DRILL.filter((k) => (k === "labelSchema" || k === "mode" ? query[k].length > 0 : query[k] !== undefined)).map((key) => {
          const v = query[key];
          const text =
            key === "groupReward"
              ? `${formatRange(query.groupReward)} (upper bound excluded)`
              : key === "labelledAt"
                ? `${v} (UTC, end excluded)`
                : Array.isArray(v)
                  ? v.join(", ")
                  : String(v);
          return (
            <Button
              key={key}
              variant="secondary"
              size="sm"
              data-testid={`drill-filter-${key}`}
              aria-label={`Remove filter ${TRAJECTORY_FILTERS[key].label}: ${text}`}
              onClick={() => onFilter(key, [])}
            >
              {TRAJECTORY_FILTERS[key].label}: {text} <X aria-hidden />
            </Button>
          );
        })}
        {hasFilters(query) ? (
          <Button variant="ghost" size="sm" onClick={onReset}>
            <RotateCcw aria-hidden /> Reset filters
          </Button>
        ) : null}
      </div>
    </div>
  );
}
