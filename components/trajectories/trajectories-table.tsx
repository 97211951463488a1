"use client";
import { useCallback, useEffect, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { VisibilityState } from "@tanstack/react-table";
import { z } from "zod";
import { Copy, DatabaseZap, Info, SearchX } from "lucide-react";
import type { TrajectoryFacets, TrajectoryList } from "@/lib/services/browse/browse-trajectories";
import {
  DEFAULT_PER_PAGE,
  TRAJECTORY_COLUMN_IDS,
  isTrajectoryColumnId,
  decodeCursor,
  trajectoryListUrlSchema,
  trajectoryQueryToParams,
  updateQuery,
  stepHref,
  hasFilters,
  type RawParams,
  type TrajectoryColumnId,
  type TrajectoryFilterKey,
  type TrajectoryListQuery,
} from "@/lib/validation/search-params";
import { formatCount } from "@/lib/format";
import { DataTable } from "@/components/data-table/data-table";
import { DataTablePagination, pagingHrefs } from "@/components/data-table/data-table-pagination";
import { DataTableSelectionBar } from "@/components/data-table/data-table-selection-bar";
import { DataTableViewOptions } from "@/components/data-table/data-table-view-options";
import { useUrlState } from "@/components/data-table/use-url-state";
import { usePersistedState } from "@/components/data-table/use-persisted-state";
import { useRowSelection } from "@/components/data-table/use-row-selection";
import { useTableHotkeys } from "@/components/data-table/use-table-hotkeys";
import { useServerTable } from "@/components/data-table/use-server-table";
import { useStreamedValue } from "@/components/data-table/use-streamed-value";
import { StepSnippet } from "@/components/search/step-snippet";
import { Button } from "@/components/ui/button";
import { CreateDatasetFromSelectionForm } from "@/components/datasets/create-dataset-form";
import { DEFAULT_HIDDEN_COLUMNS, trajectoryColumns } from "./trajectories-table-columns";
import { SEARCH_INPUT_ID, TrajectoriesTableToolbar } from "./trajectories-table-toolbar";

const parseUrl = (p: RawParams) => trajectoryListUrlSchema.parse(p);
const DEFAULT_VISIBLE = TRAJECTORY_COLUMN_IDS.filter((c) => !DEFAULT_HIDDEN_COLUMNS.includes(c));
const columnsSchema = z.array(z.enum(TRAJECTORY_COLUMN_IDS));
const idsResponseSchema = z.object({ total: z.number(), ids: z.array(z.string()), truncated: z.boolean() });
const errorResponseSchema = z.object({ error: z.object({ message: z.string() }) });
const NO_COLUMNS: TrajectoryColumnId[] = [];

interface Props {
  list: TrajectoryList;
  /** Streamed after the rows: at 10^6 a search's counts take seconds, and the rows should not wait for them. */
  facets: Promise<TrajectoryFacets | null>;
  /** Filters the page fixes (e.g. this task): applied by the server, hidden from the toolbar, kept for "select all". */
  locked?: Partial<Pick<TrajectoryListQuery, "taskId" | "runId">>;
  /** The viewer holds dataset:write: offer "Create dataset" on the selection. */
  canCreateDataset?: boolean;
}

function nextSort(sort: TrajectoryListQuery["sort"], id: TrajectoryColumnId, multi: boolean): TrajectoryListQuery["sort"] {
  const at = sort.findIndex((s) => s.id === id);
  if (multi) {
    if (at >= 0) return sort.map((s) => (s.id === id ? { ...s, desc: !s.desc } : s));
    return [...sort, { id, desc: true }].slice(-3);
  }
  return [{ id, desc: at === 0 && sort.length === 1 ? !sort[0]!.desc : true }];
}

/** The trajectory browser: server-side table whose whole state (filters, search, sort, page, columns) is the URL. */
export function TrajectoriesTable({ list, facets: facetsPromise, locked = {}, canCreateDataset = false }: Props) {
  const { value: facets, current: facetsCurrent } = useStreamedValue(facetsPromise);
  const router = useRouter();
  const { state: query, isPending, hrefFor, go } = useUrlState(parseUrl, trajectoryQueryToParams);
  const [remembered, setRemembered] = usePersistedState("reterm:trajectories:columns", columnsSchema, NO_COLUMNS);
  const { selection, setMany, selectAll, clear } = useRowSelection("trajectories");
  const [active, setActive] = useState(-1);
  const [selecting, setSelecting] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [creating, setCreating] = useState(false);
  const hidden = Object.keys(locked).flatMap((k): TrajectoryFilterKey[] =>
    k === "taskId" ? ["taskId", "category"] : k === "runId" ? ["runId", "model"] : [],
  );

  // A view link without `cols` gets the columns this browser last chose.
  useEffect(() => {
    if (!query.cols && remembered.length && remembered.join() !== DEFAULT_VISIBLE.join()) go({ ...query, cols: remembered }, "replace");
  }, [query, remembered, go]);

  const visibleCols = query.cols ?? DEFAULT_VISIBLE;
  const columnVisibility: VisibilityState = Object.fromEntries(
    TRAJECTORY_COLUMN_IDS.map((c) => [c, c === "task" || visibleCols.includes(c)]),
  );

  const { table, resetWidths } = useServerTable({
    storageKey: "reterm:trajectories",
    rows: list.rows,
    columns: trajectoryColumns,
    page: list.page,
    perPage: list.perPage,
    pageCount: list.pageCount,
    sort: query.sort,
    columnVisibility,
    onColumnVisibilityChange: (next) => {
      const cols = TRAJECTORY_COLUMN_IDS.filter((c) => c === "task" || next[c]);
      setRemembered(cols);
      go(updateQuery(query, { cols: cols.join() === DEFAULT_VISIBLE.join() ? undefined : cols }), "replace");
    },
    selectedIds: selection.ids,
    onSelect: setMany,
  });

  const [opening, startOpening] = useTransition();
  const openRow = useCallback(
    (i: number) => {
      const r = list.rows[i];
      // In a transition: the table shows itself busy until the trajectory page is there (it has no loading skeleton).
      if (r) startOpening(() => router.push(r.match ? stepHref(r.id, r.match.stepIndex) : `/trajectories/${r.id}`));
    },
    [list.rows, router],
  );
  const toggleRow = useCallback(
    (i: number) => {
      const r = list.rows[i];
      if (r) setMany([r.id], !selection.ids.has(r.id));
    },
    [list.rows, selection.ids, setMany],
  );
  useTableHotkeys({ rowCount: list.rows.length, active, setActive, onOpen: openRow, onToggle: toggleRow, searchInputId: SEARCH_INPUT_ID });

  const setFilter = (key: TrajectoryFilterKey, values: string[]) => {
    const params = trajectoryQueryToParams(query);
    params.delete(key);
    for (const v of values) params.append(key, v);
    go(updateQuery(parseUrl(Object.fromEntries([...new Set(params.keys())].map((k) => [k, params.getAll(k)]))), {}));
  };
  const viewParams = () => {
    const p = trajectoryQueryToParams({ ...query, ...locked, page: 1, cursor: undefined, cols: undefined });
    p.delete("perPage");
    return p;
  };
  const onSelectAll = async () => {
    setSelecting({ busy: true, error: null });
    const view = viewParams();
    try {
      const res = await fetch(`/api/v1/trajectories?${view.toString()}&select=ids`);
      const body: unknown = await res.json();
      if (!res.ok) throw new Error(errorResponseSchema.safeParse(body).data?.error.message ?? `HTTP ${res.status}`);
      const { ids, total, truncated } = idsResponseSchema.parse(body);
      selectAll(ids, view.toString(), total);
      setSelecting({
        busy: false,
        error: truncated ? `Only the first ${formatCount(ids.length)} of ${formatCount(total)} were selected.` : null,
      });
    } catch (e) {
      setSelecting({ busy: false, error: `Could not select all matching trajectories: ${(e as Error).message}` });
    }
  };

  const pageHref = (page: number, cursor?: string | null) =>
    hrefFor(updateQuery(query, { page, cursor: (cursor && decodeCursor(cursor)) || undefined }));
  const { page, pageCount } = list;
  const pageRowsSelected = list.rows.length > 0 && list.rows.every((r) => selection.ids.has(r.id));
  const filtered = hasFilters(query);

  return (
    <div className="rounded-lg border bg-card">
      <TrajectoriesTableToolbar
        query={query}
        facets={facets}
        counting={!facetsCurrent}
        hidden={hidden}
        pending={isPending}
        onFilter={setFilter}
        onSearch={(q, mode) => go(updateQuery(query, { q: q || undefined }), mode)}
        onReset={() => go(updateQuery(parseUrl({}), { sort: query.sort, cols: query.cols, perPage: query.perPage }))}
        end={
          <DataTableViewOptions
            table={table}
            onReset={() => {
              resetWidths();
              setRemembered(null);
              go(updateQuery(query, { cols: undefined }), "replace");
            }}
          />
        }
      />
      <DataTableSelectionBar
        count={selection.ids.size}
        matching={list.total}
        matchingCapped={list.totalCapped}
        pageSelected={pageRowsSelected}
        allMatching={selection.allMatching?.view === viewParams().toString()}
        noun="trajectories"
        busy={selecting.busy}
        error={selecting.error}
        onSelectAll={onSelectAll}
        onClear={() => {
          clear();
          setCreating(false);
          setSelecting({ busy: false, error: null });
        }}
      >
        {canCreateDataset ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setCreating(true)}
            disabled={creating || selecting.busy}
            data-testid="create-dataset-from-selection"
          >
            <DatabaseZap aria-hidden /> Create dataset
          </Button>
        ) : null}
        <Button variant="outline" size="sm" onClick={() => void navigator.clipboard?.writeText([...selection.ids].join("\n"))}>
          <Copy aria-hidden /> Copy ids
        </Button>
      </DataTableSelectionBar>
      {canCreateDataset && creating && selection.ids.size > 0 ? (
        <div className="border-b bg-accent/20 p-3">
          <CreateDatasetFromSelectionForm
            ids={[...selection.ids]}
            onCancel={() => setCreating(false)}
            onCreated={() => {
              setCreating(false);
              clear();
            }}
          />
        </div>
      ) : null}
      {list.search && list.search.indexLag > 0 ? (
        <p role="status" className="flex items-center gap-2 border-b bg-warning/10 px-3 py-2 text-sm">
          <Info className="size-4 shrink-0" aria-hidden /> {formatCount(list.search.indexLag)} recently imported trajectories are still
          being indexed for search, so results may be incomplete. Reload in a moment.
        </p>
      ) : null}
      {list.search?.searchable && !list.search.stopped && facetsCurrent && facets === null ? (
        <p role="status" className="flex items-center gap-2 border-b bg-warning/10 px-3 py-2 text-sm" data-testid="facets-skipped">
          <Info className="size-4 shrink-0" aria-hidden /> The filter counts were not computed for this search: it matches too broadly to
          count in a few seconds. The rows below are unaffected; add a filter or rarer words to see counts.
        </p>
      ) : null}
      {list.rows.length ? (
        <DataTable
          table={table}
          label="Trajectories"
          sort={query.sort}
          sortHref={(id, multi) =>
            isTrajectoryColumnId(id) ? hrefFor(updateQuery(query, { sort: nextSort(query.sort, id, multi) })) : "#"
          }
          onSortClick={(id, multi) => isTrajectoryColumnId(id) && go(updateQuery(query, { sort: nextSort(query.sort, id, multi) }))}
          activeIndex={active}
          onActivate={setActive}
          rowTestId="trajectory-row"
          busy={isPending || opening}
          renderSubRow={(row) => (row.original.match ? <StepSnippet trajectoryId={row.original.id} match={row.original.match} /> : null)}
        />
      ) : (
        <div
          role="status"
          className="flex flex-col items-center gap-3 px-6 py-14 text-center text-sm text-muted-foreground"
          data-testid="table-empty"
        >
          <SearchX className="size-8" aria-hidden />
          {list.search && !list.search.searchable ? (
            <p>
              <SearchText q={query.q} /> has nothing to search for. Type words, commands or error messages (letters or digits).
            </p>
          ) : list.search?.stopped ? (
            <p data-testid="search-stopped">
              Searching for <SearchText q={query.q} /> was stopped after a few seconds: its words appear together in too many steps to check
              them all, so an empty table here does not mean that nothing matches. Add a filter (run, task, outcome) or search for rarer
              words.
            </p>
          ) : filtered ? (
            <p>
              No trajectories match{" "}
              {query.q ? (
                <>
                  <SearchText q={query.q} /> with{" "}
                </>
              ) : null}
              these filters. Remove a filter or try other search words.
            </p>
          ) : (
            <p>Nothing here yet.</p>
          )}
          {filtered ? (
            <Button variant="outline" size="sm" onClick={() => go(updateQuery(parseUrl({}), { sort: query.sort, cols: query.cols }))}>
              Reset filters
            </Button>
          ) : null}
        </div>
      )}
      <DataTablePagination
        total={
          list.search?.stopped
            ? "Search stopped"
            : list.totalCapped
              ? `More than ${formatCount(list.total)} trajectories`
              : `${formatCount(list.total)} trajectories`
        }
        page={page}
        pageCount={pageCount}
        pageCountKnown={!list.totalCapped}
        perPage={list.perPage}
        perPageOptions={[10, DEFAULT_PER_PAGE, 50, 100]}
        onPerPage={(perPage) => go(updateQuery(query, { perPage }))}
        hrefs={pagingHrefs(page, pageCount, list, pageHref, !list.totalCapped)}
      />
    </div>
  );
}

/** The search as typed, in the terminal's type: a quoted phrase keeps its own quotes and gets no second pair. */
function SearchText({ q }: { q: string | undefined }) {
  return <code className="rounded bg-muted px-1 font-mono text-foreground">{q}</code>;
}
