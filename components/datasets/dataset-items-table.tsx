"use client";
import { useState, useTransition } from "react";
import { Trash2 } from "lucide-react";
import type { TrajectoryList } from "@/lib/services/browse/browse-trajectories";
import {
  DEFAULT_PER_PAGE,
  TRAJECTORY_COLUMN_IDS,
  decodeCursor,
  isTrajectoryColumnId,
  trajectoryListUrlSchema,
  trajectoryQueryToParams,
  updateQuery,
  type RawParams,
} from "@/lib/validation/search-params";
import { editDatasetItemsAction } from "@/lib/actions/datasets";
import { formatCount } from "@/lib/format";
import { DataTable } from "@/components/data-table/data-table";
import { DataTablePagination, pagingHrefs } from "@/components/data-table/data-table-pagination";
import { useServerTable } from "@/components/data-table/use-server-table";
import { useRowSelection } from "@/components/data-table/use-row-selection";
import { useUrlState } from "@/components/data-table/use-url-state";
import { DEFAULT_HIDDEN_COLUMNS, trajectoryColumns } from "@/components/trajectories/trajectories-table-columns";
import { Button } from "@/components/ui/button";

const parseUrl = (p: RawParams) => trajectoryListUrlSchema.parse(p);
const VISIBLE = Object.fromEntries(TRAJECTORY_COLUMN_IDS.map((c) => [c, !DEFAULT_HIDDEN_COLUMNS.includes(c)]));

/** The dataset's current items in the trajectories table's columns; rows can be removed from the draft by hand. */
export function DatasetItemsTable({
  list,
  name,
  revision,
  editable,
}: {
  list: TrajectoryList;
  name: string;
  revision: number;
  editable: boolean;
}) {
  const { state: query, isPending, hrefFor, go } = useUrlState(parseUrl, trajectoryQueryToParams);
  const { selection, setMany, clear } = useRowSelection(`dataset:${name}`);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const [removing, start] = useTransition();
  const { table } = useServerTable({
    storageKey: "reterm:dataset-items",
    rows: list.rows,
    columns: trajectoryColumns,
    page: list.page,
    perPage: list.perPage,
    pageCount: list.pageCount,
    sort: query.sort,
    columnVisibility: VISIBLE,
    ...(editable ? { selectedIds: selection.ids, onSelect: setMany } : {}),
  });
  const sortTo = (id: string, multi: boolean) =>
    isTrajectoryColumnId(id)
      ? updateQuery(query, {
          sort: multi
            ? [...query.sort.filter((s) => s.id !== id), { id, desc: true }].slice(-3)
            : [{ id, desc: !(query.sort[0]?.id === id && query.sort[0].desc) }],
        })
      : query;
  const pageHref = (page: number, cursor?: string | null) =>
    hrefFor(updateQuery(query, { page, cursor: (cursor && decodeCursor(cursor)) || undefined }));
  const { page, pageCount } = list;

  return (
    <div className="rounded-lg border bg-card">
      {editable && selection.ids.size > 0 ? (
        <div role="region" aria-label="Selection" className="flex flex-wrap items-center gap-3 border-b bg-accent/40 px-3 py-2 text-sm">
          <span>{formatCount(selection.ids.size)} selected</span>
          <Button
            variant="outline"
            size="sm"
            disabled={removing}
            onClick={() =>
              start(async () => {
                const r = await editDatasetItemsAction({ name, expectedRevision: revision, remove: [...selection.ids] });
                if (!r.ok) return setError(r.error);
                clear();
                setError(null);
              })
            }
          >
            <Trash2 aria-hidden /> Remove from dataset
          </Button>
          <Button variant="ghost" size="sm" onClick={clear}>
            Clear
          </Button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="border-b px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {list.rows.length ? (
        <DataTable
          table={table}
          label="Dataset items"
          sort={query.sort}
          sortHref={(id, multi) => hrefFor(sortTo(id, multi))}
          onSortClick={(id, multi) => go(sortTo(id, multi))}
          activeIndex={active}
          onActivate={setActive}
          rowTestId="dataset-item-row"
          busy={isPending}
        />
      ) : (
        <p role="status" className="px-6 py-10 text-center text-sm text-muted-foreground">
          This dataset has no items. Build it from a filter on the Trajectories page.
        </p>
      )}
      <DataTablePagination
        total={`${formatCount(list.total)} items`}
        page={page}
        pageCount={pageCount}
        perPage={list.perPage}
        perPageOptions={[10, DEFAULT_PER_PAGE, 50, 100]}
        onPerPage={(perPage) => go(updateQuery(query, { perPage }))}
        hrefs={pagingHrefs(page, pageCount, list, pageHref)}
      />
    </div>
  );
}
