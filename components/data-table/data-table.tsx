"use client";
import { Fragment, useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import Link from "next/link";
import { flexRender, type Header, type Row, type Table as TanstackTable } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { DataTableCheckbox } from "./data-table-checkbox";
import "./column-meta";

export interface SortState {
  id: string;
  desc: boolean;
}

interface Props<T> {
  table: TanstackTable<T>;
  sort: SortState[];
  /** Link for a header click: plain click sorts by that column alone, shift-click adds it as a further sort key. */
  sortHref: (columnId: string, multi: boolean) => string;
  onSortClick: (columnId: string, multi: boolean) => void;
  activeIndex: number;
  onActivate: (i: number) => void;
  /** Optional full-width line under a row (e.g. the search match). */
  renderSubRow?: (row: Row<T>) => ReactNode;
  rowTestId?: string;
  busy?: boolean;
  label: string;
}

function SortIcon({ state, position }: { state: SortState | undefined; position: number }) {
  if (!state) return <ChevronsUpDown className="size-3 opacity-40" aria-hidden />;
  const Icon = state.desc ? ArrowDown : ArrowUp;
  return (
    <span className="inline-flex items-center">
      <Icon className="size-3" aria-hidden />
      {position > 0 ? <sup className="text-[0.6rem]">{position + 1}</sup> : null}
    </span>
  );
}

function HeaderCell<T>({ header, props }: { header: Header<T, unknown>; props: Props<T> }) {
  const { table, sort, sortHref, onSortClick } = props;
  const id = header.column.id;
  const position = sort.findIndex((s) => s.id === id);
  const state = sort[position];
  const first = header.index === 0;
  const pageRows = table.getRowModel().rows;
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    onSortClick(id, e.shiftKey);
  };
  return (
    <TableHead
      style={{ width: header.getSize() }}
      className={cn("relative select-none", header.column.columnDef.meta?.align === "right" && "text-right")}
      aria-sort={state ? (state.desc ? "descending" : "ascending") : undefined}
    >
      <div className={cn("flex items-center gap-2", header.column.columnDef.meta?.align === "right" && "justify-end")}>
        {first ? (
          <DataTableCheckbox
            aria-label="Select all rows on this page"
            checked={pageRows.length > 0 && table.getIsAllPageRowsSelected()}
            indeterminate={table.getIsSomePageRowsSelected()}
            onChange={(e) => table.toggleAllPageRowsSelected(e.target.checked)}
          />
        ) : null}
        <Link
          href={sortHref(id, false)}
          onClick={onClick}
          scroll={false}
          className="inline-flex items-center gap-1 hover:text-foreground"
          title="Sort (shift-click to add as a further sort)"
        >
          {flexRender(header.column.columnDef.header, header.getContext())}
          <SortIcon state={state} position={position} />
        </Link>
      </div>
      {header.column.getCanResize() ? (
        <div
          role="separator"
          aria-orientation="vertical"
          aria-label={`Resize ${header.column.columnDef.meta?.label ?? id}`}
          onMouseDown={header.getResizeHandler()}
          onTouchStart={header.getResizeHandler()}
          onDoubleClick={() => header.column.resetSize()}
          className={cn(
            "absolute top-1 right-0 h-7 w-1 cursor-col-resize rounded bg-border opacity-0 hover:opacity-100",
            header.column.getIsResizing() && "bg-primary opacity-100",
          )}
        />
      ) : null}
    </TableHead>
  );
}

/** Renders a TanStack table in manual (server-side) mode: sortable headers as links, resizable columns, selection. */
export function DataTable<T>(props: Props<T>) {
  const { table, activeIndex, onActivate, renderSubRow, rowTestId, busy, label } = props;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;

  useEffect(() => {
    bodyRef.current?.querySelector<HTMLElement>(`[data-row-index="${activeIndex}"]`)?.scrollIntoView({ block: "nearest" });
  }, [activeIndex]);

  return (
    <Table
      aria-label={label}
      aria-busy={busy || undefined}
      className={cn("table-fixed transition-opacity", busy && "opacity-60")}
      style={{ width: table.getTotalSize(), minWidth: "100%" }}
    >
      <TableHeader>
        {table.getHeaderGroups().map((hg) => (
          <TableRow key={hg.id} className="hover:bg-transparent">
            {hg.headers.map((h) => (
              <HeaderCell key={h.id} header={h} props={props} />
            ))}
          </TableRow>
        ))}
      </TableHeader>
      <TableBody ref={bodyRef}>
        {rows.map((row, i) => {
          const sub = renderSubRow?.(row);
          const active = i === activeIndex;
          return (
            <Fragment key={row.id}>
              <TableRow
                data-testid={rowTestId}
                data-row-index={i}
                data-state={row.getIsSelected() ? "selected" : undefined}
                data-active={active || undefined}
                onClick={() => onActivate(i)}
                className={cn(active && "bg-muted/70 outline-2 -outline-offset-2 outline-primary/70", sub && "border-b-0")}
              >
                {row.getVisibleCells().map((cell, c) => (
                  <TableCell
                    key={cell.id}
                    className={cn(
                      "overflow-hidden text-ellipsis",
                      cell.column.columnDef.meta?.align === "right" && "text-right tabular-nums",
                    )}
                  >
                    {c === 0 ? (
                      <div className="flex min-w-0 items-center gap-2">
                        <DataTableCheckbox
                          aria-label="Select row"
                          checked={row.getIsSelected()}
                          onChange={(e) => row.toggleSelected(e.target.checked)}
                          onClick={(e) => e.stopPropagation()}
                        />
                        <div className="min-w-0 flex-1">{flexRender(cell.column.columnDef.cell, cell.getContext())}</div>
                      </div>
                    ) : (
                      flexRender(cell.column.columnDef.cell, cell.getContext())
                    )}
                  </TableCell>
                ))}
              </TableRow>
              {sub ? (
                <tr className={cn("border-b", active && "bg-muted/70")} data-testid={rowTestId ? `${rowTestId}-detail` : undefined}>
                  <td colSpan={columnCount} className="px-3 pb-2 pl-9">
                    {sub}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}
