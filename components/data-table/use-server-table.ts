"use client";
import {
  functionalUpdate,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type VisibilityState,
} from "@tanstack/react-table";
import { z } from "zod";
import { usePersistedState } from "./use-persisted-state";
import type { SortState } from "./data-table";

// The one place a server-side table is wired to TanStack: the server pages, sorts and filters (manual modes); the
// table only renders rows, remembers column widths per browser, and maps selection to ids that survive paging.
// Used by the trajectories browser and the dataset items table (and by queues after merge).

const widthsSchema = z.record(z.string(), z.number().min(40).max(2000));
const NO_WIDTHS: Record<string, number> = {};

export interface ServerTableOptions<T extends { id: string }> {
  /** Storage key prefix for this table's remembered widths, e.g. "reterm:trajectories". */
  storageKey: string;
  rows: T[];
  columns: ColumnDef<T>[];
  page: number;
  perPage: number;
  pageCount: number;
  sort: SortState[];
  columnVisibility?: VisibilityState;
  onColumnVisibilityChange?: (next: VisibilityState) => void;
  /** Selected ids across pages; omit both selection props for a table without checkboxes. */
  selectedIds?: ReadonlySet<string>;
  onSelect?: (ids: string[], selected: boolean) => void;
}

export function useServerTable<T extends { id: string }>(o: ServerTableOptions<T>) {
  const [widths, setWidths] = usePersistedState(`${o.storageKey}:widths`, widthsSchema, NO_WIDTHS);
  const selectable = o.selectedIds !== undefined && o.onSelect !== undefined;
  const rowSelection: RowSelectionState = selectable
    ? Object.fromEntries(o.rows.filter((r) => o.selectedIds!.has(r.id)).map((r) => [r.id, true]))
    : {};
  const columnVisibility = o.columnVisibility ?? {};

  // TanStack Table returns fresh functions each render; the React Compiler skips memoizing this hook, which is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: o.rows,
    columns: o.columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.id,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    pageCount: o.pageCount,
    enableRowSelection: selectable,
    enableColumnResizing: true,
    columnResizeMode: "onChange",
    state: {
      pagination: { pageIndex: o.page - 1, pageSize: o.perPage },
      sorting: o.sort.map((s) => ({ id: s.id, desc: s.desc })),
      columnVisibility,
      columnSizing: widths,
      rowSelection,
    },
    onColumnSizingChange: (u) => setWidths(functionalUpdate(u, widths)),
    onColumnVisibilityChange: (u) => o.onColumnVisibilityChange?.(functionalUpdate(u, columnVisibility)),
    onRowSelectionChange: (u) => {
      if (!selectable) return;
      const next = functionalUpdate(u, rowSelection);
      o.onSelect!(
        o.rows.filter((r) => next[r.id]).map((r) => r.id),
        true,
      );
      o.onSelect!(
        o.rows.filter((r) => !next[r.id]).map((r) => r.id),
        false,
      );
    },
  });
  return { table, resetWidths: () => setWidths(null) };
}
