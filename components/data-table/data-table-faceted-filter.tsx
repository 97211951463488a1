"use client";
import { useState } from "react";
import { Popover } from "radix-ui";
import { PlusCircle, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { formatCount } from "@/lib/format";
import { cn } from "@/lib/utils";

export interface FacetOptionView {
  value: string;
  label: string;
  detail?: string | null;
  count: number;
}

interface Props {
  title: string;
  options: FacetOptionView[];
  selected: string[];
  /** Several values (checkboxes, OR-ed) or at most one (radio buttons with "Any"). */
  multiple: boolean;
  onChange: (values: string[]) => void;
  /** The counts are being recomputed (the options shown, if any, are the previous query's). */
  counting?: boolean;
}

const FILTERABLE = 8;

/** A facet as a toolbar button opening a list of values with how many trajectories each would match. */
export function DataTableFacetedFilter({ title, options, selected, multiple, onChange, counting = false }: Props) {
  const [filter, setFilter] = useState("");
  // Show a click at once; the URL (and with it `selected`) catches up when the navigation completes.
  const [optimistic, setOptimistic] = useState<string[] | null>(null);
  const [seen, setSeen] = useState(selected.join("\u0000"));
  if (seen !== selected.join("\u0000")) {
    setSeen(selected.join("\u0000"));
    setOptimistic(null);
  }
  const current = optimistic ?? selected;
  const change = (values: string[]) => {
    setOptimistic(values);
    onChange(values);
  };
  const shown = options.filter((o) => !filter || `${o.label} ${o.detail ?? ""}`.toLowerCase().includes(filter.toLowerCase()));
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const toggle = (value: string, on: boolean) => {
    if (!multiple) return change(on ? [value] : []);
    change(on ? [...current, value] : current.filter((v) => v !== value));
  };
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          className={cn("border-dashed", selected.length && "border-solid border-primary/60")}
          data-testid={`facet-${title}`}
        >
          <PlusCircle aria-hidden />
          {title}
          {selected.length ? (
            <Badge variant="primary" className="ml-0.5 max-w-40 truncate">
              {selected.length > 2 ? `${selected.length} selected` : selected.map(labelOf).join(", ")}
            </Badge>
          ) : null}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-72 rounded-md border bg-card p-2 text-sm text-card-foreground shadow-md"
          aria-label={`${title} filter`}
        >
          {options.length > FILTERABLE ? (
            <input
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder={`Find ${title.toLowerCase()}…`}
              aria-label={`Find ${title.toLowerCase()}`}
              className="mb-2 h-8 w-full rounded-md border bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
          ) : null}
          <div role="group" aria-label={title} aria-busy={counting} className="flex max-h-72 flex-col overflow-y-auto">
            {!multiple ? (
              <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 hover:bg-accent">
                <input
                  type="radio"
                  name={`facet-${title}`}
                  aria-label="Any"
                  checked={current.length === 0}
                  onChange={() => change([])}
                  className="accent-primary"
                />
                <span className="flex-1">Any</span>
              </label>
            ) : null}
            {shown.map((o) => {
              const on = current.includes(o.value);
              return (
                <label
                  key={o.value}
                  className={cn(
                    "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 hover:bg-accent",
                    o.count === 0 && !on && "opacity-50",
                  )}
                >
                  <input
                    type={multiple ? "checkbox" : "radio"}
                    name={`facet-${title}`}
                    aria-label={o.label}
                    checked={on}
                    onChange={(e) => toggle(o.value, e.target.checked)}
                    className="accent-primary"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate">{o.label}</span>
                    {o.detail ? <span className="block truncate text-xs text-muted-foreground">{o.detail}</span> : null}
                  </span>
                  <span className={cn("text-xs text-muted-foreground tabular-nums", counting && "opacity-50")} data-testid="facet-count">
                    {formatCount(o.count)}
                  </span>
                </label>
              );
            })}
            {shown.length === 0 ? (
              <p className="px-2 py-3 text-center text-muted-foreground">{counting ? "Counting…" : "No matching values."}</p>
            ) : null}
          </div>
          {current.length ? (
            <Button variant="ghost" size="sm" className="mt-1 w-full" onClick={() => change([])}>
              <X aria-hidden /> Clear {title.toLowerCase()} filter
            </Button>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
