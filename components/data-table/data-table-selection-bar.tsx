"use client";
import type { ReactNode } from "react";
import { CheckSquare, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatCount, formatCountAtLeast } from "@/lib/format";

interface Props {
  /** Selected rows, across pages. */
  count: number;
  /** Rows matching the current view. */
  matching: number;
  /** `matching` is a lower bound (a search stopped counting at its cap). */
  matchingCapped?: boolean;
  /** True when every row on the visible page is selected (offer to extend to all matching). */
  pageSelected: boolean;
  /** The selection is exactly "all matching the current view". */
  allMatching: boolean;
  noun: string;
  busy: boolean;
  error: string | null;
  onSelectAll: () => void;
  onClear: () => void;
  children?: ReactNode;
}

/** What is selected, with "select all N matching" (not only the page) and actions on the selection. */
export function DataTableSelectionBar({
  count,
  matching,
  matchingCapped = false,
  pageSelected,
  allMatching,
  noun,
  busy,
  error,
  onSelectAll,
  onClear,
  children,
}: Props) {
  if (count === 0 && !error) return null;
  return (
    <div role="region" aria-label="Selection" className="flex flex-wrap items-center gap-3 border-b bg-accent/40 px-3 py-2 text-sm">
      <CheckSquare className="size-4 text-primary" aria-hidden />
      <span data-testid="selection-count">
        {allMatching ? `All ${formatCount(count)} matching ${noun} selected` : `${formatCount(count)} ${noun} selected`}
      </span>
      {!allMatching && pageSelected && (matchingCapped || matching > count) ? (
        <Button variant="outline" size="sm" onClick={onSelectAll} disabled={busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden /> : null}
          Select all {formatCountAtLeast(matching, matchingCapped)} matching
        </Button>
      ) : null}
      {error ? (
        <span role="alert" className="text-destructive">
          {error}
        </span>
      ) : null}
      <div className="ml-auto flex items-center gap-2">
        {children}
        <Button variant="ghost" size="sm" onClick={onClear}>
          <X aria-hidden /> Clear selection
        </Button>
      </div>
    </div>
  );
}
