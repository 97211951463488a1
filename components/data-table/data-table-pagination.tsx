"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatCount, formatCountAtLeast } from "@/lib/format";

interface Props {
  total: ReactNode;
  page: number;
  pageCount: number;
  /** False when the total is a lower bound (a capped search count): "Page 3 of 41+", and no link to the last page. */
  pageCountKnown?: boolean;
  /** Links for first/previous/next/last page; null where there is no such page. */
  hrefs: { first: string | null; prev: string | null; next: string | null; last: string | null };
  perPage: number;
  perPageOptions: number[];
  onPerPage: (n: number) => void;
}

function PageLink({ href, label, children }: { href: string | null; label: string; children: ReactNode }) {
  return href ? (
    <Button variant="outline" size="sm" asChild>
      <Link href={href} scroll={false} aria-label={label} title={label}>
        {children}
      </Link>
    </Button>
  ) : (
    <Button variant="outline" size="sm" disabled aria-label={label} title={label}>
      {children}
    </Button>
  );
}

/** Footer of a server-side table: total, rows per page and page links (prev/next use keyset cursors). */
export function DataTablePagination({ total, page, pageCount, pageCountKnown = true, hrefs, perPage, perPageOptions, onPerPage }: Props) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t px-3 py-2 text-sm text-muted-foreground">
      <span data-testid="table-total">{total}</span>
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-2">
          Rows per page
          <select
            className="h-8 rounded-md border bg-background px-2 text-foreground"
            value={perPage}
            onChange={(e) => onPerPage(Number(e.target.value))}
          >
            {perPageOptions.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <span className="tabular-nums" data-testid="page-position">
          Page {formatCount(page)} of {formatCountAtLeast(pageCount, !pageCountKnown)}
        </span>
        <div className="flex items-center gap-1">
          <PageLink href={hrefs.first} label="First page">
            <ChevronFirst />
          </PageLink>
          <PageLink href={hrefs.prev} label="Previous page">
            <ChevronLeft />
          </PageLink>
          <PageLink href={hrefs.next} label="Next page">
            <ChevronRight />
          </PageLink>
          <PageLink href={hrefs.last} label="Last page">
            <ChevronLast />
          </PageLink>
        </div>
      </div>
    </div>
  );
}

/**
 * The four paging links of a keyset-paged list: first and last by page number, previous and next by the cursors the
 * server returned (page 2's "previous" is page 1, which needs none).
 */
export function pagingHrefs(
  page: number,
  pageCount: number,
  cursors: { prevCursor?: string | null; nextCursor?: string | null },
  pageHref: (page: number, cursor?: string | null) => string,
  /** False when the page count is only a lower bound: there is no known last page to link to. */
  lastKnown = true,
): { first: string | null; prev: string | null; next: string | null; last: string | null } {
  return {
    first: page > 1 ? pageHref(1) : null,
    prev: page > 1 ? pageHref(page - 1, page > 2 ? cursors.prevCursor : null) : null,
    next: page < pageCount && cursors.nextCursor ? pageHref(page + 1, cursors.nextCursor) : null,
    last: lastKnown && page < pageCount ? pageHref(pageCount) : null,
  };
}
