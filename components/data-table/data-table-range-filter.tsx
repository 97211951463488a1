"use client";
import { useState, type FormEvent } from "react";
import { Popover } from "radix-ui";
import { PlusCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

export interface Range {
  min?: number;
  max?: number;
}

interface Props {
  title: string;
  value: Range | undefined;
  /** Smallest and largest value among the trajectories the other filters match. */
  bounds: { min: number | null; max: number | null };
  step: number;
  onChange: (r: Range | undefined) => void;
}

const show = (r: Range) => (r.min !== undefined && r.min === r.max ? `= ${r.min}` : `${r.min ?? "…"} – ${r.max ?? "…"}`);
const parse = (s: string) => (s.trim() === "" ? undefined : Number(s));

/** A numeric range filter (min and/or max) as a toolbar button. */
export function DataTableRangeFilter({ title, value, bounds, step, onChange }: Props) {
  const [min, setMin] = useState(value?.min?.toString() ?? "");
  const [max, setMax] = useState(value?.max?.toString() ?? "");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const lo = parse(min);
    const hi = parse(max);
    if ([lo, hi].some((n) => n !== undefined && !Number.isFinite(n))) return setError("Enter numbers only.");
    if (lo !== undefined && hi !== undefined && lo > hi) return setError("The minimum is larger than the maximum.");
    setError(null);
    onChange(lo === undefined && hi === undefined ? undefined : { min: lo, max: hi });
  };
  const hint =
    bounds.min !== null && bounds.max !== null
      ? `Values here range from ${bounds.min} to ${bounds.max}.`
      : "No values among the current matches.";
  return (
    <Popover.Root
      onOpenChange={(open) => {
        if (!open) return;
        setMin(value?.min?.toString() ?? "");
        setMax(value?.max?.toString() ?? "");
        setError(null);
      }}
    >
      <Popover.Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          className={cn("border-dashed", value && "border-solid border-primary/60")}
          data-testid={`facet-${title}`}
        >
          <PlusCircle aria-hidden />
          {title}
          {value ? <Badge variant="primary">{show(value)}</Badge> : null}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-64 rounded-md border bg-card p-3 text-sm text-card-foreground shadow-md"
          aria-label={`${title} range`}
        >
          <form onSubmit={submit} className="flex flex-col gap-2">
            <div className="flex items-end gap-2">
              <label className="flex flex-1 flex-col gap-1 text-xs text-muted-foreground">
                Minimum
                <input
                  type="number"
                  step={step}
                  value={min}
                  onChange={(e) => setMin(e.target.value)}
                  placeholder={bounds.min?.toString() ?? ""}
                  aria-label={`Minimum ${title.toLowerCase()}`}
                  className="h-8 rounded-md border bg-background px-2 text-sm text-foreground"
                />
              </label>
              <span className="pb-1.5 text-muted-foreground">–</span>
              <label className="flex flex-1 flex-col gap-1 text-xs text-muted-foreground">
                Maximum
                <input
                  type="number"
                  step={step}
                  value={max}
                  onChange={(e) => setMax(e.target.value)}
                  placeholder={bounds.max?.toString() ?? ""}
                  aria-label={`Maximum ${title.toLowerCase()}`}
                  className="h-8 rounded-md border bg-background px-2 text-sm text-foreground"
                />
              </label>
            </div>
            <p className="text-xs text-muted-foreground">{hint}</p>
            {error ? (
              <p role="alert" className="text-xs text-destructive">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              {value ? (
                <Button type="button" variant="ghost" size="sm" onClick={() => onChange(undefined)}>
                  Clear
                </Button>
              ) : null}
              <Button type="submit" size="sm">
                Apply
              </Button>
            </div>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
